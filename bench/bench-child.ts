// What the bench's child processes (target-process.ts, sim-process.ts) share: how they answer the
// bench and how they end.

/** Sends the bench a message, unless the bench is gone (its channel closed): then no one asks. */
export function tellBench(message: object): void {
  if (process.connected) process.send?.(message);
}

/**
 * Ends this process on the bench's "stop", when its channel to the bench closes (the bench
 * exited or was killed, SIGKILL included), or on a signal of its own (Ctrl-C reaches the whole
 * foreground process group at once). Whichever comes first runs `stop` (the child's service
 * ended, its database dropped), once, then the process exits. Once it is stopping, what fails
 * under it (a start cut short) is the stop's doing: ask `stopping`.
 */
export function stopWhen(stop: () => Promise<void>): { readonly stopping: boolean } {
  let stopping = false;
  const stopOnce = () => {
    if (stopping) return;
    stopping = true;
    void stop()
      .catch((error: unknown) => console.error(`bench child: stopping failed: ${String(error)}`))
      .finally(() => process.exit(0));
  };
  process.on("message", (message: { type?: string }) => {
    if (message.type === "stop") stopOnce();
  });
  process.on("disconnect", stopOnce);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stopOnce);
  return {
    get stopping() {
      return stopping;
    },
  };
}
