import type { Logger } from "pino";
import { createMetricsListener, type MetricsListener } from "../server/metrics-listener.js";
import type { Metrics } from "../telemetry/metrics.js";
import { StartupFailure } from "./startup-failure.js";

/**
 * Prometheus on METRICS_PORT (docs/deploy.md), never on the game-facing port; undefined with
 * METRICS_PORT=off. A port that cannot be listened on stops start-up with one line naming it.
 */
export async function listenForMetrics(
  at: { port: number; host: string } | undefined,
  metrics: Pick<Metrics, "scrape" | "contentType">,
  logger: Logger,
): Promise<MetricsListener | undefined> {
  if (!at) return undefined;
  const listener = createMetricsListener({
    metrics,
    onError: (error) => logger.error({ err: error }, "metrics scrape failed"),
  });
  const { port, host } = at;
  const address = await listener.listen(port, host).catch((error: NodeJS.ErrnoException) => {
    const why = error.code === "EADDRINUSE" ? "is already in use" : `cannot be listened on (${error.message})`;
    throw new StartupFailure(`METRICS_PORT ${port} on METRICS_HOST ${host} ${why}; choose another port, or off`);
  });
  logger.info({ url: `http://${address.address}:${address.port}/metrics` }, "metrics listening");
  return listener;
}
