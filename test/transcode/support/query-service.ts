import { create, createFileRegistry, type DescService, type Registry, setExtension } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  FieldDescriptorProto_Label as Label,
  MethodOptionsSchema,
  FieldDescriptorProto_Type as Type,
} from "@bufbuild/protobuf/wkt";
import { http } from "../../../gen/google/api/annotations_pb.js";
import { HttpRuleSchema } from "../../../gen/google/api/http_pb.js";

/** `GET /v1/q` taking a message with bool, enum, repeated, uint64 and nested fields. */
export function fakeQueryService(): { service: DescService; registry: Registry } {
  const field = (name: string, number: number, type: Type, extra: Record<string, unknown> = {}) => ({
    name,
    number,
    type,
    label: Label.OPTIONAL,
    jsonName: name,
    ...extra,
  });
  const options = create(MethodOptionsSchema);
  setExtension(options, http, create(HttpRuleSchema, { pattern: { case: "get", value: "/v1/q" } }));
  const file = create(FileDescriptorProtoSchema, {
    name: "test/v1/query.proto",
    package: "test.q",
    syntax: "proto3",
    enumType: [
      {
        name: "State",
        value: [
          { name: "STATE_UNSPECIFIED", number: 0 },
          { name: "ACTIVE", number: 1 },
          { name: "DONE", number: 2 },
        ],
      },
    ],
    messageType: [
      {
        name: "Inner",
        field: [field("state", 1, Type.ENUM, { typeName: ".test.q.State" }), field("flag", 2, Type.BOOL)],
      },
      {
        name: "Query",
        field: [
          field("flag", 1, Type.BOOL),
          field("state", 2, Type.ENUM, { typeName: ".test.q.State" }),
          field("tags", 3, Type.STRING, { label: Label.REPEATED }),
          field("big", 4, Type.UINT64),
          field("inner", 5, Type.MESSAGE, { typeName: ".test.q.Inner" }),
          field("states", 6, Type.ENUM, { typeName: ".test.q.State", label: Label.REPEATED }),
        ],
      },
    ],
    service: [
      { name: "Q", method: [{ name: "Get", inputType: ".test.q.Query", outputType: ".test.q.Inner", options }] },
    ],
  });
  const registry = createFileRegistry(file, () => undefined);
  const service = registry.getService("test.q.Q");
  if (service === undefined) throw new Error("query service did not build");
  return { service, registry };
}
