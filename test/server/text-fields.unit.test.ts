import { create, createFileRegistry, type DescMessage, type Message } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  file_google_protobuf_struct,
  file_google_protobuf_wrappers,
  FieldDescriptorProto_Label as Label,
  FieldDescriptorProto_Type as Type,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { firstNul } from "../../src/server/interceptors/text-fields.js";

// A message with every shape a string can hide in: singular, nested, repeated, map keys and
// values, a oneof member, a wrapper, and a Struct (maps of oneofs of lists).
const field = (name: string, number: number, type: Type, extra: Record<string, unknown> = {}) => ({
  name,
  jsonName: name.replace(/_(\w)/g, (_, c: string) => c.toUpperCase()),
  number,
  type,
  label: Label.OPTIONAL,
  ...extra,
});
const mapEntry = (name: string, valueType: Type, typeName?: string) => ({
  name,
  field: [field("key", 1, Type.STRING), field("value", 2, valueType, typeName ? { typeName } : {})],
  options: { mapEntry: true },
});
const file = create(FileDescriptorProtoSchema, {
  name: "probe.proto",
  package: "probe",
  syntax: "proto3",
  dependency: ["google/protobuf/wrappers.proto", "google/protobuf/struct.proto"],
  messageType: [
    {
      name: "Probe",
      field: [
        field("text", 1, Type.STRING),
        field("child", 2, Type.MESSAGE, { typeName: ".probe.Probe" }),
        field("tags", 3, Type.STRING, { label: Label.REPEATED }),
        field("children", 4, Type.MESSAGE, { typeName: ".probe.Probe", label: Label.REPEATED }),
        field("labels", 5, Type.MESSAGE, { typeName: ".probe.Probe.LabelsEntry", label: Label.REPEATED }),
        field("named", 6, Type.MESSAGE, { typeName: ".probe.Probe.NamedEntry", label: Label.REPEATED }),
        field("picked", 7, Type.STRING, { oneofIndex: 0 }),
        field("count", 8, Type.INT64, { oneofIndex: 0 }),
        field("note", 9, Type.MESSAGE, { typeName: ".google.protobuf.StringValue" }),
        field("blob", 10, Type.BYTES),
        field("extra", 11, Type.MESSAGE, { typeName: ".google.protobuf.Struct" }),
        field("notes", 12, Type.MESSAGE, { typeName: ".google.protobuf.StringValue", label: Label.REPEATED }),
      ],
      nestedType: [mapEntry("LabelsEntry", Type.STRING), mapEntry("NamedEntry", Type.MESSAGE, ".probe.Probe")],
      oneofDecl: [{ name: "choice" }],
    },
  ],
});
const registry = createFileRegistry(file, (name) =>
  [file_google_protobuf_wrappers, file_google_protobuf_struct].find((f) => `${f.name}.proto` === name),
);
const Probe = registry.getMessage("probe.Probe") as DescMessage;
const probe = (init: Record<string, unknown>) => create(Probe, init) as Message;

describe("firstNul", () => {
  it.each([
    ["a string", { text: "a\u0000" }, "text"],
    ["a nested message's string", { child: { child: { text: "\u0000" } } }, "child.child.text"],
    ["a repeated string", { tags: ["ok", "b\u0000d"] }, "tags"],
    ["a repeated message's string", { children: [{ text: "ok" }, { text: "\u0000" }] }, "children.text"],
    ["a map key", { labels: { "k\u0000": "v" } }, "labels"],
    ["a map value", { labels: { k: "v\u0000" } }, "labels"],
    ["a message map value's string", { named: { k: { tags: ["\u0000"] } } }, "named.tags"],
    ["a oneof member", { choice: { case: "picked", value: "x\u0000" } }, "picked"],
    ["a wrapper", { note: "x\u0000" }, "note"],
    ["a repeated wrapper", { notes: [{ value: "x\u0000" }] }, "notes.value"],
    [
      "a Struct's string value",
      { extra: { fields: { a: { kind: { case: "stringValue", value: "\u0000" } } } } },
      "extra.fields.stringValue",
    ],
  ])("finds U+0000 in %s", (_, init, path) => {
    expect(firstNul(Probe, probe(init))).toBe(path);
  });

  it("finds nothing in text without U+0000, in numbers, bytes, or an unset oneof", () => {
    const clean = probe({
      text: "fine",
      child: { text: "also fine", child: {} },
      tags: ["a", "b"],
      children: [{ text: "c" }],
      labels: { k: "v" },
      named: { k: { text: "d" } },
      choice: { case: "count", value: 7n },
      note: "n",
      blob: new Uint8Array([0, 0, 0]),
      extra: { fields: { a: { kind: { case: "numberValue", value: 1 } } } },
      notes: [{ value: "e" }],
    });
    expect(firstNul(Probe, clean)).toBeUndefined();
    expect(firstNul(Probe, probe({}))).toBeUndefined();
  });

  it("reports the first field in declaration order", () => {
    expect(firstNul(Probe, probe({ tags: ["\u0000"], text: "\u0000" }))).toBe("text");
  });
});
