import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spreadLoopbackClients } from "../../bench/loopback-clients.js";
import { playerAgent } from "../../bench/purchase-load.js";

// The bench's players and readers must reach the service from many addresses, or with WORKERS
// one worker serves the whole load (src/server/worker-slot.ts) and the WORKERS rows measure
// nothing but the primary's relay. Checked as the service would see them: the socket's peer.
describe("the bench's client addresses", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((req, res) => res.end(req.socket.remoteAddress));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("gives each purchase player a loopback address of its own", async () => {
    const seen: string[] = [];
    for (const index of [0, 1, 31]) {
      const agent = playerAgent(index);
      const res = await request(`http://127.0.0.1:${port}/`, { dispatcher: agent });
      seen.push(await res.body.text());
      await agent.close();
    }
    expect(seen).toEqual(["127.0.2.2", "127.0.2.3", "127.0.2.33"]);
  });

  it("spreads the readers' connections (autocannon's net.connect) over loopback addresses in turn", async () => {
    spreadLoopbackClients(2);
    const peerOf = () =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(port, "127.0.0.1");
        let answer = "";
        socket.on("connect", () => socket.write("GET / HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n"));
        socket.on("data", (chunk) => {
          answer += chunk;
        });
        socket.on("end", () => resolve(answer.split("\r\n\r\n")[1] ?? ""));
        socket.on("error", reject);
      });
    expect([await peerOf(), await peerOf(), await peerOf()]).toEqual(["127.0.1.2", "127.0.1.3", "127.0.1.2"]);
  });
});
