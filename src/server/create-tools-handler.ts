import type { DescService } from "@bufbuild/protobuf";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { type HealthServiceOptions, healthService, registerHealth } from "./health-service.js";
import { createFileIndex } from "./reflection/file-index.js";
import { reflectionServices, registerReflection } from "./reflection/register-reflection.js";

type NodeHandler = ReturnType<typeof connectNodeAdapter>;

export interface ToolsHandlerOptions extends Omit<HealthServiceOptions, "services"> {
  /** The product's services: listed by reflection and known to health checks. */
  services: readonly DescService[];
  maxBodyBytes: number;
  /** Everything that is not a tools call: the product's Connect, gRPC, gRPC-web and REST. */
  fallback: NodeHandler;
}

/**
 * gRPC server reflection (v1, v1alpha) and `grpc.health.v1.Health` on every protocol. They are
 * tools' protocols, not the product's: served before it and outside its interceptors, so they
 * need no credential and are not rate limited (a load balancer's probe has no API key).
 */
export function createToolsHandler(options: ToolsHandlerOptions): NodeHandler {
  const index = createFileIndex([...options.services, healthService, ...reflectionServices]);
  return connectNodeAdapter({
    routes(router) {
      registerHealth(router, { ...options, services: index.services });
      registerReflection(router, index);
    },
    readMaxBytes: options.maxBodyBytes,
    fallback: options.fallback,
  });
}
