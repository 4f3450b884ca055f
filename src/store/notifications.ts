import type pg from "pg";

// PostgreSQL LISTEN on a connection of its own, kept open: a replica hears what the others
// announce with pg_notify (delivered when their transaction commits). A notification sent
// while the connection was down (or not yet up) is lost, so `onListening` is told each time it
// listens, and the caller treats everything as changed.

export interface NotificationHandlers {
  onNotify(payload: string): void;
  /** Listening (again): any notification before was missed. */
  onListening(): void;
  onError(error: Error): void;
}

export interface Listening {
  close(): Promise<void>;
}

const RETRY_MS = 1000;

export function listenOn(
  Client: typeof pg.Client,
  url: string,
  channel: string,
  handlers: NotificationHandlers,
): Listening {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    if (closed) return;
    const next = new Client({ connectionString: url });
    client = next;
    next.on("notification", (message) => {
      if (message.channel === channel) handlers.onNotify(message.payload ?? "");
    });
    next.on("error", (error) => handlers.onError(error));
    next.on("end", () => {
      if (client === next && !closed) retry = setTimeout(() => void connect(), RETRY_MS);
    });
    try {
      await next.connect();
      // The channel is ours, a constant; quoted as an identifier all the same.
      await next.query(`LISTEN "${channel.replaceAll('"', '""')}"`);
      handlers.onListening();
    } catch (error) {
      handlers.onError(error as Error);
      await next.end().catch(() => {});
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
