import { createRequire } from "node:module";
import { context, propagation, type Tracer, trace } from "@opentelemetry/api";
import type { SpanExporter, SpanProcessor } from "@opentelemetry/sdk-trace-base";

export interface Tracing {
  /** Starts the RPC and platform spans; the database's come from Prisma's instrumentation. */
  tracer: Tracer;
  /** Sends what is buffered and unregisters, so the process is as if tracing never ran. */
  shutdown(): Promise<void>;
}

export type TracingOptions = { serviceName: string } & (
  | { /** OTLP/HTTP collector base, e.g. http://otel-collector:4318 (`/v1/traces` is appended). */ endpoint: string }
  /** Tests: spans go to this processor (e.g. a SimpleSpanProcessor over an InMemorySpanExporter). */
  | { processor: SpanProcessor }
);

/**
 * Turns tracing on for this process. OpenTelemetry's context is process-wide by design (an
 * AsyncLocalStorage context manager, and Prisma reads its instrumentation from a global), so
 * this registers globally; it is only called when OTEL_EXPORTER_OTLP_ENDPOINT is set, and with
 * tracing off nothing is registered and no span object is ever made.
 */
export function createTracing(options: TracingOptions): Tracing {
  const sdk = loadSdk();
  const { NodeTracerProvider, resourceFromAttributes, ATTR_SERVICE_NAME, PrismaInstrumentation } = sdk;
  const processor =
    "processor" in options ? options.processor : new sdk.BatchSpanProcessor(otlpExporter(sdk, options.endpoint));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: [processor],
  });
  provider.register();
  const prisma = new PrismaInstrumentation({ enabled: false });
  prisma.setTracerProvider(provider);
  prisma.enable();
  return {
    tracer: provider.getTracer("encore-campaigns"),
    async shutdown() {
      prisma.disable();
      try {
        // Rejects when the collector cannot take the last batch; unregister all the same.
        await provider.shutdown();
      } finally {
        trace.disable();
        context.disable();
        propagation.disable();
      }
    },
  };
}

function otlpExporter(sdk: Sdk, endpoint: string): SpanExporter {
  return new sdk.OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, "")}/v1/traces` });
}

// The SDK is loaded when tracing is turned on, not with this module: tracing is off unless
// configured, and the SDK's some 230 files were a large share of what a start loaded
// (docs/performance.md). A synchronous load (these packages ship CommonJS) keeps
// createTracing, and createApp, synchronous.
const load = createRequire(import.meta.url);
type Sdk = ReturnType<typeof loadSdk>;

function loadSdk() {
  const base = load("@opentelemetry/sdk-trace-base") as typeof import("@opentelemetry/sdk-trace-base");
  const node = load("@opentelemetry/sdk-trace-node") as typeof import("@opentelemetry/sdk-trace-node");
  const resources = load("@opentelemetry/resources") as typeof import("@opentelemetry/resources");
  const conventions = load(
    "@opentelemetry/semantic-conventions",
  ) as typeof import("@opentelemetry/semantic-conventions");
  const prisma = load("@prisma/instrumentation") as typeof import("@prisma/instrumentation");
  const otlp = load(
    "@opentelemetry/exporter-trace-otlp-http",
  ) as typeof import("@opentelemetry/exporter-trace-otlp-http");
  return {
    BatchSpanProcessor: base.BatchSpanProcessor,
    NodeTracerProvider: node.NodeTracerProvider,
    resourceFromAttributes: resources.resourceFromAttributes,
    ATTR_SERVICE_NAME: conventions.ATTR_SERVICE_NAME,
    PrismaInstrumentation: prisma.PrismaInstrumentation,
    OTLPTraceExporter: otlp.OTLPTraceExporter,
  };
}
