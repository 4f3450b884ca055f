import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { createTracing, type Tracing } from "../../src/telemetry/tracing.js";

/** Tracing turned on for this process, its spans kept in memory for a test to read. */
export function startTestTracing(): { exporter: InMemorySpanExporter; tracing: Tracing } {
  const exporter = new InMemorySpanExporter();
  const tracing = createTracing({ serviceName: "encore-test", processor: new SimpleSpanProcessor(exporter) });
  return { exporter, tracing };
}

/** Every span below `root` (children, their children...), in the order they started. */
export function spansUnder(spans: ReadableSpan[], root: ReadableSpan): ReadableSpan[] {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const rootId = root.spanContext().spanId;
  const under = (span: ReadableSpan): boolean => {
    for (let parent = span.parentSpanContext?.spanId; parent; ) {
      if (parent === rootId) return true;
      parent = byId.get(parent)?.parentSpanContext?.spanId;
    }
    return false;
  };
  const started = (span: ReadableSpan) => span.startTime[0] * 1e9 + span.startTime[1];
  return spans.filter(under).sort((a, b) => started(a) - started(b));
}
