// What a cluster's primary and its workers say to each other (cluster-primary.ts, main.ts),
// besides what prom-client and rate-limiter-flexible send on their own channels.

/** The worker's slot, so a replacement serves the same addresses as the worker it replaces. */
export const WORKER_SLOT_ENV = "ENCORE_WORKER_SLOT";

/** Primary to worker, with a connection's socket as the handle: serve it. */
export interface HandedConnection {
  type: "encore:connection";
}

/** Worker to primary: its database is open and its jobs started; hand it connections. */
export interface WorkerReady {
  type: "encore:ready";
}

export function isHandedConnection(message: unknown): message is HandedConnection {
  return (message as HandedConnection | undefined)?.type === "encore:connection";
}

export function isWorkerReady(message: unknown): message is WorkerReady {
  return (message as WorkerReady | undefined)?.type === "encore:ready";
}
