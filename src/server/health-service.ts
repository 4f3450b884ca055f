import type { ConnectRouter } from "@connectrpc/connect";
import { Health, HealthCheckResponse_ServingStatus as Status } from "../../gen/grpc/health/v1/health_pb.js";
import { notFound } from "../errors/status.js";

export interface HealthServiceOptions {
  /** Full names of the services served; "" (the whole server) is always known. */
  services: readonly string[];
  /** The readiness `/readyz` answers with: true when the service can serve. */
  isReady: () => Promise<boolean>;
  /** Watch streams end on it, so a draining listener is not held open by them. */
  shutdownSignal: AbortSignal;
  /** How often a Watch stream asks isReady again. */
  watchIntervalMs: number;
}

/**
 * `grpc.health.v1.Health` (grpc/health/v1/health.proto): every service shares the server's
 * one readiness, as they share its database. Check refuses an unknown name with NOT_FOUND;
 * Watch answers SERVICE_UNKNOWN instead and stays open, as the protocol asks.
 */
export function registerHealth(router: ConnectRouter, options: HealthServiceOptions): void {
  const known = new Set(["", ...options.services]);
  const current = async () => ((await options.isReady()) ? Status.SERVING : Status.NOT_SERVING);
  router.service(Health, {
    async check({ service }) {
      if (!known.has(service)) throw notFound(`unknown service ${service}`);
      return { status: await current() };
    },
    async list() {
      const status = await current();
      return { statuses: Object.fromEntries([...known].map((name) => [name, { status }])) };
    },
    async *watch({ service }, context) {
      const stop = AbortSignal.any([context.signal, options.shutdownSignal]);
      let last: Status | undefined;
      while (!stop.aborted) {
        const status = known.has(service) ? await current() : Status.SERVICE_UNKNOWN;
        if (status !== last) yield { status };
        last = status;
        await pause(options.watchIntervalMs, stop);
      }
      if (options.shutdownSignal.aborted && known.has(service) && last !== Status.NOT_SERVING) {
        yield { status: Status.NOT_SERVING };
      }
    },
  });
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** The service this adds, so it is listed by reflection and known to Check. */
export const healthService = Health;
