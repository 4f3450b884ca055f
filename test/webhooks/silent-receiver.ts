import type { AddressInfo } from "node:net";
import { createServer, type Socket } from "node:net";

// A webhook receiver that accepts every connection and never answers (docs/webhooks.md
// "Fairness"): each delivery to it holds its attempt until the timeout. It counts the
// connections open at once, in all and per path, so a test can see what the delivery job let
// through at the same time. `answering` turns it into a plain 200 receiver.

export interface SilentReceiver {
  /** An endpoint URL on it; `path` tells endpoints apart in `peakByPath`. */
  url(path?: string): string;
  /** Connections open right now. */
  open(): number;
  /** The most connections that were open at once. */
  peak(): number;
  /** The most requests for each path that were open at once. */
  peakByPath(): Map<string, number>;
  /** Requests answered while `answering` was true. */
  answered(): number;
  answering: boolean;
  /** Ends every open connection (each attempt on it fails at once) and stops listening. */
  close(): Promise<void>;
}

export async function startSilentReceiver(): Promise<SilentReceiver> {
  const sockets = new Set<Socket>();
  const openByPath = new Map<string, number>();
  const peakByPath = new Map<string, number>();
  let peak = 0;
  let answered = 0;
  const receiver = { answering: false } as SilentReceiver;
  const server = createServer((socket) => {
    sockets.add(socket);
    peak = Math.max(peak, sockets.size);
    let head = "";
    let path: string | undefined;
    socket.on("data", (chunk: Buffer) => {
      if (path !== undefined) return;
      head += chunk.toString("latin1");
      const line = /^POST (\S+) HTTP/.exec(head);
      if (!line?.[1]) return;
      path = line[1];
      const open = (openByPath.get(path) ?? 0) + 1;
      openByPath.set(path, open);
      peakByPath.set(path, Math.max(peakByPath.get(path) ?? 0, open));
      if (receiver.answering) {
        answered += 1;
        socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
      }
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      sockets.delete(socket);
      if (path !== undefined) openByPath.set(path, (openByPath.get(path) ?? 1) - 1);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: (path = "/hooks") => `http://127.0.0.1:${port}${path}`,
    open: () => sockets.size,
    peak: () => peak,
    peakByPath: () => new Map(peakByPath),
    answered: () => answered,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
