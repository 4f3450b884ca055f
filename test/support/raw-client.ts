import net from "node:net";
import tls from "node:tls";

/** The bytes every HTTP/2 connection with prior knowledge opens with (RFC 9113 3.4). */
export const H2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

export interface RawClient {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received(): string;
  /** Resolves "closed" once the server closed the connection, or "open" after `ms`. */
  closedWithin(ms: number): Promise<"closed" | "open">;
  /** Writes `bytes` one byte every `everyMs` until the connection closes. */
  dribble(bytes: string, everyMs: number): void;
  /** Resolves with what the server sent once `text` appears in it. */
  waitFor(text: string): Promise<string>;
  destroy(): void;
}

export interface RawClientOptions {
  port: number;
  /** Another loopback address (127.0.0.2, ...) to stand for another client. */
  localAddress?: string;
  /** Completes a TLS handshake first (any certificate accepted), offering these ALPN protocols. */
  tls?: { alpn: string[] };
}

/** A client that writes exactly the bytes a test gives it, as a slow or hostile client would. */
export async function openRawClient(options: RawClientOptions): Promise<RawClient> {
  const socket = options.tls
    ? tls.connect({
        port: options.port,
        host: "127.0.0.1",
        rejectUnauthorized: false,
        ALPNProtocols: options.tls.alpn,
      })
    : net.connect({ port: options.port, host: "127.0.0.1", localAddress: options.localAddress });
  let text = "";
  let timer: NodeJS.Timeout | undefined;
  const closed = new Promise<void>((resolve) =>
    socket.once("close", () => {
      clearInterval(timer);
      resolve();
    }),
  );
  socket.on("error", () => {});
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("latin1");
  });
  await new Promise<void>((resolve) => {
    socket.once(options.tls ? "secureConnect" : "connect", () => resolve());
    socket.once("close", () => resolve());
  });
  return {
    socket,
    received: () => text,
    closedWithin: (ms) =>
      Promise.race([
        closed.then(() => "closed" as const),
        new Promise<"open">((resolve) => setTimeout(() => resolve("open"), ms)),
      ]),
    dribble(bytes, everyMs) {
      let at = 0;
      timer = setInterval(() => {
        if (socket.destroyed || at >= bytes.length) return clearInterval(timer);
        socket.write(bytes.slice(at, at + 1));
        at += 1;
      }, everyMs);
    },
    async waitFor(wanted) {
      for (let i = 0; i < 200 && !text.includes(wanted); i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return text;
    },
    destroy() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}
