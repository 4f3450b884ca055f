import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { context, propagation, SpanKind, SpanStatusCode, type TextMapGetter, type Tracer } from "@opentelemetry/api";
import { kRequestId } from "../../core/context-keys.js";

// W3C trace context (`traceparent`) from the request's headers, on every protocol.
const headerGetter: TextMapGetter<Headers> = {
  keys: (headers) => [...headers.keys()],
  get: (headers, key) => headers.get(key) ?? undefined,
};

/**
 * One server span per call, active while the call runs, so the database's and the platform's
 * spans become its children; a caller's `traceparent` makes it part of the caller's trace.
 * Only installed when tracing is configured (docs/deploy.md).
 */
export function createTraceInterceptor(tracer: Tracer): Interceptor {
  return (next) => (req) =>
    tracer.startActiveSpan(
      `${req.service.typeName}/${req.method.name}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "rpc.system": "connect_rpc",
          "rpc.service": req.service.typeName,
          "rpc.method": req.method.name,
          "encore.request_id": req.contextValues.get(kRequestId),
        },
      },
      propagation.extract(context.active(), req.header, headerGetter),
      async (span) => {
        try {
          const res = await next(req);
          span.setAttribute("rpc.connect_rpc.error_code", "Ok");
          return res;
        } catch (error) {
          const refusal = ConnectError.from(error);
          span.setAttribute("rpc.connect_rpc.error_code", Code[refusal.code] ?? "Unknown");
          span.setStatus({ code: SpanStatusCode.ERROR, message: refusal.rawMessage });
          throw error;
        } finally {
          span.end();
        }
      },
    );
}
