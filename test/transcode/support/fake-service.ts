import type { MessageInitShape } from "@bufbuild/protobuf";
import { create, createFileRegistry, type DescService, setExtension } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  MethodOptionsSchema,
} from "@bufbuild/protobuf/wkt";
import { http } from "../../../gen/google/api/annotations_pb.js";
import { type HttpRule, HttpRuleSchema } from "../../../gen/google/api/http_pb.js";

/** A rule the way a proto spells it: `{ get: "/v1/x", body: "*" }`. */
export interface RuleInit {
  get?: string;
  put?: string;
  post?: string;
  delete?: string;
  patch?: string;
  custom?: { kind: string; path: string };
  body?: string;
  responseBody?: string;
  additionalBindings?: RuleInit[];
}

function toHttpRule(rule: RuleInit): HttpRule {
  const { custom, body, responseBody, additionalBindings, ...verbs } = rule;
  const [verb, path] = Object.entries(verbs)[0] ?? [];
  const pattern: MessageInitShape<typeof HttpRuleSchema>["pattern"] =
    custom !== undefined
      ? { case: "custom", value: custom }
      : verb !== undefined
        ? { case: verb as "get", value: path as string }
        : undefined;
  return create(HttpRuleSchema, {
    pattern,
    body: body ?? "",
    responseBody: responseBody ?? "",
    additionalBindings: (additionalBindings ?? []).map(toHttpRule),
  });
}

/**
 * A service built at run time, one method per rule, all taking `test.v1.Req` (fields `name`,
 * `parent`, `id`, nested `thing.name`) and returning `test.v1.Thing`: lets tests state
 * routing tables and conflicts without a proto file.
 */
export function fakeService(rules: Record<string, RuleInit>, methodKind: "unary" | "server" = "unary"): DescService {
  const str = (name: string, number: number) => ({
    name,
    number,
    type: FieldDescriptorProto_Type.STRING,
    label: FieldDescriptorProto_Label.OPTIONAL,
    jsonName: name,
  });
  const file = create(FileDescriptorProtoSchema, {
    name: "test/v1/fake.proto",
    package: "test.v1",
    syntax: "proto3",
    messageType: [
      { name: "Thing", field: [str("name", 1)] },
      {
        name: "Req",
        field: [
          str("name", 1),
          str("parent", 2),
          str("id", 3),
          {
            name: "thing",
            number: 4,
            type: FieldDescriptorProto_Type.MESSAGE,
            typeName: ".test.v1.Thing",
            label: FieldDescriptorProto_Label.OPTIONAL,
            jsonName: "thing",
          },
        ],
      },
    ],
    service: [
      {
        name: "Fake",
        method: Object.entries(rules).map(([name, rule]) => {
          const options = create(MethodOptionsSchema);
          setExtension(options, http, toHttpRule(rule));
          return {
            name,
            inputType: ".test.v1.Req",
            outputType: ".test.v1.Thing",
            options,
            serverStreaming: methodKind === "server",
          };
        }),
      },
    ],
  });
  const registry = createFileRegistry(file, () => undefined);
  const service = registry.getService("test.v1.Fake");
  if (service === undefined) throw new Error("fake service did not build");
  return service;
}
