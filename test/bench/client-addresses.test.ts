import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playerAgent } from "../../bench/purchase-load.js";

// The bench's players reach the service from many addresses, as players do, so the service's
// counters per address are as under real load. Checked as the service would see them: the
// socket's peer.
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
});
