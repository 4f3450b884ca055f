import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kClientAddress, kRequestId } from "../../core/context-keys.js";
import type { Metrics } from "../../telemetry/metrics.js";

/**
 * Counts and times every call on every protocol (REST included: the transcoder runs the same
 * interceptors). Placed before the request log, so it sees the code a caller gets, after
 * unexpected failures became INTERNAL or UNAVAILABLE.
 */
export function createRpcMetricsInterceptor(metrics: Pick<Metrics, "rpc">): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const method = `${req.service.typeName}/${req.method.name}`;
    try {
      const res = await next(req);
      metrics.rpc(method, "ok", (performance.now() - started) / 1000);
      return res;
    } catch (error) {
      metrics.rpc(method, ConnectError.from(error).code, (performance.now() - started) / 1000);
      throw error;
    }
  };
}

type BeforeBody = (call: { route: { method: DescMethod }; contextValues: ContextValues }) => Promise<void>;

/**
 * A REST call refused before its body is read (the rate limit, spec 8) never reaches the
 * interceptors; it is still one call, counted and logged like every other.
 */
export function observeBeforeBody(gate: BeforeBody, metrics: Pick<Metrics, "rpc">, logger: Logger): BeforeBody {
  return async (call) => {
    const started = performance.now();
    try {
      await gate(call);
    } catch (error) {
      const seconds = (performance.now() - started) / 1000;
      const rpc = `${call.route.method.parent.typeName}/${call.route.method.name}`;
      const code = ConnectError.from(error).code;
      metrics.rpc(rpc, code, seconds);
      logger.info(
        {
          requestId: call.contextValues.get(kRequestId),
          rpc,
          peer: call.contextValues.get(kClientAddress),
          ms: Math.round(seconds * 100_000) / 100,
          code: Code[code],
        },
        "refused",
      );
      throw error;
    }
  };
}
