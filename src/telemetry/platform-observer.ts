import { SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { SteamCallObserver } from "../platform/steam/steam-http.js";
import type { Metrics } from "./metrics.js";

/**
 * The Steam client's calls as metrics (every HTTP exchange) and, when tracing is on, as one
 * client span per call (retries inside it), a child of the RPC or job that made it.
 */
export function createSteamObserver(metrics: Pick<Metrics, "platformCall">, tracer?: Tracer): SteamCallObserver {
  return {
    attempt: (call, outcome, seconds) => metrics.platformCall("steam", call, outcome, seconds),
    around: (call, run) => {
      if (!tracer) return run();
      return tracer.startActiveSpan(
        `steam ${call}`,
        { kind: SpanKind.CLIENT, attributes: { "encore.platform": "steam", "encore.platform.call": call } },
        async (span) => {
          try {
            const result = await run();
            span.setAttribute("encore.platform.outcome", result.kind);
            // A refusal is an answer (e.g. a declined order); only no answer is a fault.
            if (result.kind === "unavailable") span.setStatus({ code: SpanStatusCode.ERROR, message: result.cause });
            return result;
          } finally {
            span.end();
          }
        },
      );
    },
  };
}
