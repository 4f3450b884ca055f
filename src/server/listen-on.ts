import type net from "node:net";
import type { AddressInfo } from "node:net";

/** Starts `server` on `port` and `host`; rejects with the bind error (EADDRINUSE, a bad host). */
export function listenOn(server: net.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve(server.address() as AddressInfo);
    });
  });
}
