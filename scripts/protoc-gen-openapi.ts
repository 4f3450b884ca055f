// A buf/protoc plugin writing the OpenAPI 3.1 document of every HTTP binding of the files it is
// asked to generate (buf.gen.openapi.yaml; `npm run generate` runs it after gen/ is current).
import { create, createFileRegistry } from "@bufbuild/protobuf";
import {
  CodeGeneratorResponse_Feature,
  CodeGeneratorResponseSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { getComments, type Plugin, runNodeJs } from "@bufbuild/protoplugin";
import { buildOpenApi } from "../src/openapi/build-openapi.js";
import { checksPlayerTicket, isPublicMethod } from "../src/server/public-methods.js";

const DESCRIPTION = `Every HTTP/JSON binding of Encore Campaigns' APIs (google.api.http), as the service's REST
transcoder serves them. The same methods are served over gRPC, gRPC-web and Connect.

- Bodies are proto3 canonical JSON: fields by their lowerCamelCase JSON names (proto names are
  accepted on input), 64-bit integers as decimal strings, enums by value name, Timestamps as
  RFC 3339 strings, google.protobuf.FieldMask as a comma-separated list of lowerCamelCase paths.
- Responses carry every field: implicit ones at their zero value, an unset message as null;
  only \`optional\` fields and oneof members are ever absent. Unknown request fields are ignored.
- A failure is a google.rpc.Status \`{code, message, details}\` with the numeric google.rpc.Code;
  the HTTP status follows from the code by one table (the ErrorNNN responses say which codes
  each status carries); refusals carry a google.rpc.ErrorInfo whose \`reason\` names the rule.
- /v1/public/* calls read no credential (purchases:begin answers 401 when the platform does not
  vouch for the player's ticket); every other call needs \`Authorization: Bearer\`.
- A request body is JSON (\`Content-Type: application/json\`, else 400), sent as it is or gzip;
  any other Content-Encoding is answered 415.
- No response may be cached (\`Cache-Control: no-store\`).`;

const plugin: Plugin = {
  name: "protoc-gen-openapi",
  version: "v1",
  run(request) {
    const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: request.protoFile }));
    const services = request.fileToGenerate.flatMap((name) => registry.getFile(name)?.services ?? []);
    const document = buildOpenApi({
      services,
      info: { title: "Encore Campaigns HTTP API", version: "v1", description: DESCRIPTION },
      isPublic: isPublicMethod,
      checksPlayer: checksPlayerTicket,
      describe(desc) {
        const text = getComments(desc).leading;
        return text
          ?.split("\n")
          .map((line) => line.trim())
          .join("\n")
          .trim();
      },
    });
    return create(CodeGeneratorResponseSchema, {
      supportedFeatures: BigInt(CodeGeneratorResponse_Feature.PROTO3_OPTIONAL),
      file: [{ name: "encore.openapi.json", content: `${JSON.stringify(document, null, 2)}\n` }],
    });
  },
};

runNodeJs(plugin);
