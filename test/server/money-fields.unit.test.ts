import { create, createFileRegistry, type DescMessage, type Message, setExtension } from "@bufbuild/protobuf";
import {
  FieldOptionsSchema,
  FileDescriptorProtoSchema,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  FieldBehavior,
  field_behavior,
  file_google_api_field_behavior,
} from "../../gen/google/api/field_behavior_pb.js";
import { file_google_type_money } from "../../gen/google/type/money_pb.js";
import { firstAmountOutOfRange } from "../../src/server/interceptors/money-fields.js";

// A message with every shape an amount can hide in: singular, nested (in a type that contains
// itself), repeated, a map value, a oneof member; and an output-only one, which is not read.
const field = (name: string, number: number, type: Type, extra: Record<string, unknown> = {}) => ({
  name,
  jsonName: name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  number,
  type,
  label: Label.OPTIONAL,
  ...extra,
});
const MONEY = ".google.type.Money";
const outputOnly = create(FieldOptionsSchema);
setExtension(outputOnly, field_behavior, [FieldBehavior.OUTPUT_ONLY]);
const file = create(FileDescriptorProtoSchema, {
  name: "probe.proto",
  package: "probe",
  syntax: "proto3",
  dependency: ["google/type/money.proto", "google/api/field_behavior.proto"],
  messageType: [
    {
      name: "Probe",
      field: [
        field("amount", 1, Type.MESSAGE, { typeName: MONEY }),
        field("child", 2, Type.MESSAGE, { typeName: ".probe.Probe" }),
        field("amounts", 3, Type.MESSAGE, { typeName: MONEY, label: Label.REPEATED }),
        field("children", 4, Type.MESSAGE, { typeName: ".probe.Probe", label: Label.REPEATED }),
        field("priced", 5, Type.MESSAGE, { typeName: ".probe.Probe.PricedEntry", label: Label.REPEATED }),
        field("fixed", 6, Type.MESSAGE, { typeName: MONEY, oneofIndex: 0 }),
        field("note", 7, Type.STRING, { oneofIndex: 0 }),
        field("total", 8, Type.MESSAGE, { typeName: MONEY, options: outputOnly }),
        field("plain", 9, Type.MESSAGE, { typeName: ".probe.Plain" }),
      ],
      nestedType: [
        {
          name: "PricedEntry",
          field: [field("key", 1, Type.STRING), field("value", 2, Type.MESSAGE, { typeName: MONEY })],
          options: { mapEntry: true },
        },
      ],
      oneofDecl: [{ name: "choice" }],
    },
    { name: "Plain", field: [field("text", 1, Type.STRING)] },
  ],
});
const registry = createFileRegistry(file, (name) =>
  [file_google_type_money, file_google_api_field_behavior].find((f) => `${f.name}.proto` === name),
);
const Probe = registry.getMessage("probe.Probe") as DescMessage;
const probe = (init: Record<string, unknown>) => create(Probe, init) as Message;

// One nano past USD 1,000,000.00 (domain/money.ts), either side of zero; and the bound itself.
const past = { currencyCode: "USD", units: 1_000_000n, nanos: 1 };
const pastBelow = { currencyCode: "USD", units: -1_000_000n, nanos: -1 };
const largest = { currencyCode: "USD", units: 1_000_000n, nanos: 0 };

describe("firstAmountOutOfRange", () => {
  it.each([
    ["an amount", { amount: past }, "amount"],
    ["an amount below the bound's negative", { amount: pastBelow }, "amount"],
    ["one that overflowed int64 nano-USD", { amount: { units: 9_223_372_037n } }, "amount"],
    ["a nested message's amount", { child: { child: { amount: past } } }, "child.child.amount"],
    ["a repeated amount", { amounts: [largest, past] }, "amounts"],
    ["a repeated message's amount", { children: [{}, { amounts: [past] }] }, "children.amounts"],
    ["a map value", { priced: { a: largest, b: past } }, "priced"],
    ["a oneof member", { choice: { case: "fixed", value: past } }, "fixed"],
  ])("finds %s", (_, init, path) => {
    expect(firstAmountOutOfRange(Probe, probe(init))).toBe(path);
  });

  it("passes the largest amount accepted wherever it is, an output-only field, and a request without money", () => {
    const atTheBound = probe({
      amount: largest,
      child: { amount: { currencyCode: "USD", units: -1_000_000n } },
      amounts: [largest],
      children: [{ amount: largest }],
      priced: { a: largest },
      choice: { case: "fixed", value: largest },
      total: { currencyCode: "USD", units: 5_000_000n },
      plain: { text: "x" },
    });
    expect(firstAmountOutOfRange(Probe, atTheBound)).toBeUndefined();
    expect(firstAmountOutOfRange(Probe, probe({}))).toBeUndefined();
    expect(firstAmountOutOfRange(Probe, probe({ choice: { case: "note", value: "x" } }))).toBeUndefined();
  });

  it("reports the first field in declaration order", () => {
    expect(firstAmountOutOfRange(Probe, probe({ amounts: [past], amount: past }))).toBe("amount");
  });
});
