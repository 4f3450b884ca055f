import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { internal } from "../../errors/status.js";
import { kLogger, kPeerAddress, kRequestId } from "../context.js";

/**
 * Logs one line per call with its outcome, and turns anything that is not a ConnectError
 * into INTERNAL: the cause goes to the log, never to the caller (STYLE rule 6).
 */
export function createRequestLogInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const requestId = req.contextValues.get(kRequestId);
    const log = logger.child({ requestId, rpc: `${req.service.typeName}/${req.method.name}` });
    req.contextValues.set(kLogger, log);
    const started = performance.now();
    try {
      const res = await next(req);
      log.debug({ ms: elapsed(started), peer: req.contextValues.get(kPeerAddress) }, "ok");
      return res;
    } catch (error) {
      if (!(error instanceof ConnectError)) {
        log.error({ err: error, ms: elapsed(started) }, "unexpected failure");
        throw internal();
      }
      const level = error.code === Code.Internal || error.code === Code.Unknown ? "error" : "info";
      log[level](
        { code: Code[error.code], reason: error.rawMessage, err: error.cause, ms: elapsed(started) },
        "refused",
      );
      throw error;
    }
  };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}
