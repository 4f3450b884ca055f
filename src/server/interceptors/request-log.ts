import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { kClientAddress, kRequestId } from "../../core/context-keys.js";
import { internal, unavailable } from "../../errors/status.js";
import { isStoreUnavailable } from "../../store/store-unavailable.js";

/**
 * Logs one line per call (info: method, code, duration, request id, peer), and turns anything
 * that is not a ConnectError into INTERNAL (or UNAVAILABLE when the database is not
 * answering): the cause goes to the log, never to the caller (STYLE rule 6). The line's
 * logger is only made when a line is written (LOG_LEVEL=warn: a served call pays nothing).
 */
export function createRequestLogInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const line = () =>
      logger.child({
        requestId: req.contextValues.get(kRequestId),
        rpc: `${req.service.typeName}/${req.method.name}`,
        peer: req.contextValues.get(kClientAddress),
        ms: elapsed(started),
      });
    try {
      const res = await next(req);
      if (logger.isLevelEnabled("info")) line().info({ code: "OK" }, "served");
      return res;
    } catch (error) {
      if (!(error instanceof ConnectError)) {
        if (isStoreUnavailable(error)) {
          line().warn({ err: error }, "database unavailable");
          throw unavailable("The service cannot reach its database right now; retry with backoff.");
        }
        line().error({ err: error }, "unexpected failure");
        throw internal();
      }
      const level = error.code === Code.Internal || error.code === Code.Unknown ? "error" : "info";
      if (logger.isLevelEnabled(level)) {
        line()[level]({ code: Code[error.code], reason: error.rawMessage, err: error.cause }, "refused");
      }
      throw error;
    }
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
