import { fromBinary, toBinary } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import {
  ServerReflection,
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
} from "../../../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflection as ServerReflectionV1alpha,
  ServerReflectionRequestSchema as V1alphaRequestSchema,
  ServerReflectionResponseSchema as V1alphaResponseSchema,
} from "../../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { answerReflection } from "./answer-reflection.js";
import type { FileIndex } from "./file-index.js";

/**
 * gRPC server reflection, `grpc.reflection.v1` and the older `v1alpha` that grpcurl and some
 * clients still ask for. The two are the same messages under two package names, so v1alpha
 * is answered by v1 through the binary form.
 */
export function registerReflection(router: ConnectRouter, index: FileIndex): void {
  router.service(ServerReflection, {
    async *serverReflectionInfo(requests) {
      const sent = new Set<string>();
      for await (const request of requests) yield answerReflection(index, request, sent);
    },
  });
  router.service(ServerReflectionV1alpha, {
    async *serverReflectionInfo(requests) {
      const sent = new Set<string>();
      for await (const request of requests) {
        const asV1 = fromBinary(ServerReflectionRequestSchema, toBinary(V1alphaRequestSchema, request));
        const answer = answerReflection(index, asV1, sent);
        yield fromBinary(V1alphaResponseSchema, toBinary(ServerReflectionResponseSchema, answer));
      }
    },
  });
}

/** The services reflection itself adds, so they list themselves as grpc-go's do. */
export const reflectionServices = [ServerReflection, ServerReflectionV1alpha];
