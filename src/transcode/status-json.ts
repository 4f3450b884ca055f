import {
  create,
  type DescMessage,
  fromBinary,
  type JsonObject,
  type JsonValue,
  type Registry,
  toJson,
} from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";

/** A failure ready for the wire: HTTP status and bare google.rpc.Status JSON (spec 7). */
export interface StatusResponse {
  readonly httpStatus: number;
  readonly body: JsonObject;
}

export interface ErrorToStatusOptions {
  /** Must hold every detail type an error may carry (google.rpc.ErrorInfo, ...). */
  readonly registry: Registry;
  /** Receives the cause of anything that is not a ConnectError; it is never echoed. */
  readonly onInternalError: (cause: unknown) => void;
}

const typeUrlPrefix = "type.googleapis.com/";

/**
 * Any error as `{code, message, details}` with the numeric google.rpc.Code, the HTTP status
 * from connect-es's code table (the one table every protocol of ours uses, api-conventions 2)
 * and each detail as a ProtoJSON Any with its `@type` first. message and details are always
 * present, as grpc-gateway and vanguard write them.
 */
export function errorToStatus(error: unknown, options: ErrorToStatusOptions): StatusResponse {
  if (!(error instanceof ConnectError)) {
    options.onInternalError(error);
    return statusResponse(Code.Internal, "internal error", []);
  }
  const details: JsonValue[] = [];
  for (const detail of error.details) {
    const rendered =
      "desc" in detail
        ? anyJson(detail.desc, create(detail.desc, detail.value), options.registry)
        : incomingAnyJson(detail.type, detail.value, options.registry);
    if (rendered !== undefined) details.push(rendered);
  }
  return statusResponse(error.code, error.rawMessage, details);
}

function statusResponse(code: Code, message: string, details: JsonValue[]): StatusResponse {
  return { httpStatus: codeToHttpStatus(code), body: { code, message, details } };
}

// A detail decoded from the Connect wire is `{type, value: bytes}`; a type the registry does
// not know cannot be written as ProtoJSON, so it is left out rather than failing the reply.
function incomingAnyJson(typeName: string, value: Uint8Array, registry: Registry): JsonObject | undefined {
  const desc = registry.getMessage(typeName);
  if (desc === undefined) return undefined;
  return anyJson(desc, fromBinary(desc, value), registry);
}

function anyJson(desc: DescMessage, message: Parameters<typeof toJson>[1], registry: Registry): JsonObject {
  const json = toJson(desc, message, { registry, alwaysEmitImplicit: true });
  const type = typeUrlPrefix + desc.typeName;
  // Well-known types with a non-object JSON form go under "value" (ProtoJSON Any rule).
  if (
    typeof json !== "object" ||
    json === null ||
    Array.isArray(json) ||
    desc.typeName.startsWith("google.protobuf.")
  ) {
    return { "@type": type, value: json };
  }
  return { "@type": type, ...json };
}
