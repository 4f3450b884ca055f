import net from "node:net";

/**
 * Makes autocannon's connections to 127.0.0.1 come from `count` loopback addresses in turn
 * (127.0.1.2 and up) instead of all from 127.0.0.1: players come from many addresses, and with
 * WORKERS the service hands every connection of one address to the same worker
 * (src/server/worker-slot.ts), so a load from one address would be served by one worker only.
 * autocannon has no option for the local address; it calls `net.connect(port, host)`, which is
 * the only form changed here (undici and pg connect with an options object).
 */
export function spreadLoopbackClients(count: number): void {
  const connect = net.connect;
  let next = 0;
  net.connect = ((...args: unknown[]) => {
    const [port, host] = args;
    if (typeof port === "number" && host === "127.0.0.1" && args.length === 2) {
      const localAddress = `127.0.1.${2 + (next++ % count)}`;
      return connect({ port, host, localAddress });
    }
    return (connect as (...a: unknown[]) => net.Socket)(...args);
  }) as typeof net.connect;
}
