import { create, type DescFile, type MessageInitShape, toBinary } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import {
  type ServerReflectionRequest,
  type ServerReflectionResponse,
  ServerReflectionResponseSchema,
} from "../../../gen/grpc/reflection/v1/reflection_pb.js";
import type { FileIndex } from "./file-index.js";

type Answer = MessageInitShape<typeof ServerReflectionResponseSchema>["messageResponse"];

/**
 * One answer of a reflection stream (grpc/reflection/v1/reflection.proto). `sent` holds the
 * files already sent on this stream: as grpc-go does, a file descriptor response carries the
 * requested file first, then only the imports the client has not had yet.
 */
export function answerReflection(
  index: FileIndex,
  request: ServerReflectionRequest,
  sent: Set<string>,
): ServerReflectionResponse {
  return create(ServerReflectionResponseSchema, {
    validHost: request.host,
    originalRequest: request,
    messageResponse: answer(index, request.messageRequest, sent),
  });
}

function answer(index: FileIndex, request: ServerReflectionRequest["messageRequest"], sent: Set<string>): Answer {
  switch (request.case) {
    case "listServices":
      return {
        case: "listServicesResponse",
        value: { service: index.services.map((name) => ({ name })) },
      };
    case "fileByFilename":
      return files(index, index.fileByName(request.value), sent, `no file named ${request.value}`);
    case "fileContainingSymbol":
      return files(index, index.fileContainingSymbol(request.value), sent, `no symbol named ${request.value}`);
    case "fileContainingExtension": {
      const { containingType, extensionNumber } = request.value;
      const extension = index.extensionsOf(containingType)?.find((e) => e.number === extensionNumber);
      return files(index, extension?.file, sent, `no extension ${extensionNumber} of ${containingType}`);
    }
    case "allExtensionNumbersOfType": {
      const extensions = index.extensionsOf(request.value);
      if (extensions === undefined) return notFound(`no message type named ${request.value}`);
      return {
        case: "allExtensionNumbersResponse",
        value: { baseTypeName: request.value, extensionNumber: extensions.map((e) => e.number) },
      };
    }
    default:
      return {
        case: "errorResponse",
        value: { errorCode: Code.InvalidArgument, errorMessage: "the request names no known question" },
      };
  }
}

function files(index: FileIndex, file: DescFile | undefined, sent: Set<string>, missing: string): Answer {
  if (file === undefined) return notFound(missing);
  const [first, ...imports] = index.withDependencies(file);
  const out = [first, ...imports.filter((f) => !sent.has(f.proto.name))].filter((f) => f !== undefined);
  for (const f of out) sent.add(f.proto.name);
  return {
    case: "fileDescriptorResponse",
    value: { fileDescriptorProto: out.map((f) => toBinary(FileDescriptorProtoSchema, f.proto)) },
  };
}

function notFound(message: string): Answer {
  return { case: "errorResponse", value: { errorCode: Code.NotFound, errorMessage: message } };
}
