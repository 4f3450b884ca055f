// Contract: every call under every injected fault lands in the right result class; reads are
// retried, writes never; the publisher key appears in no result and no log line.

import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SteamClient } from "../../../src/platform/steam/create-steam-client.js";
import type { PlatformResult, SteamPlatform } from "../../../src/platform/steam/steam-platform.js";
import type { SteamCallName } from "../../../src/sim/steam/sim-state.js";
import { APPID, BIG_ORDERID, IDENTITY, KEY, STEAMID, type SteamFixture, startSteamFixture } from "./steam-fixture.js";

let fixture: SteamFixture;
let client: SteamClient;
let patient: SteamClient;
const logLines: string[] = [];

beforeAll(async () => {
  fixture = await startSteamFixture();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  client = fixture.client({ timeoutMs: 200, logger: pino({ level: "debug" }, sink) });
  patient = fixture.client({ timeoutMs: 2_000 });
});
afterAll(() => fixture.close());
beforeEach(async () => {
  await fixture.seed();
  logLines.length = 0;
});

const ref = { publisherKey: KEY, sandbox: true, appid: APPID, orderid: BIG_ORDERID };

type Case = { call: SteamCallName; keyed: boolean; run: (c: SteamPlatform) => Promise<PlatformResult<unknown>> };

const CALLS: readonly Case[] = [
  {
    call: "AuthenticateUserTicket",
    keyed: true,
    run: (c) => c.authenticateTicket({ publisherKey: KEY, appid: APPID, ticket: "AB12" }),
  },
  {
    call: "GetUserInfo",
    keyed: true,
    run: (c) => c.getUserInfo({ publisherKey: KEY, sandbox: false, appid: APPID, steamid: STEAMID }),
  },
  {
    call: "InitTxn",
    keyed: true,
    run: (c) =>
      c.initTxn({
        ...ref,
        steamid: STEAMID,
        language: "en",
        currency: "USD",
        items: [{ itemid: 1, qty: 1, amountCents: 100n, description: "funding" }],
      }),
  },
  { call: "QueryTxn", keyed: true, run: (c) => c.queryTxn(ref) },
  { call: "FinalizeTxn", keyed: true, run: (c) => c.finalizeTxn(ref) },
  {
    call: "GetReport",
    keyed: true,
    run: (c) => c.getReport({ ...ref, type: "SETTLEMENT", time: "2026-01-01T00:00:00Z", maxResults: 1000 }),
  },
  { call: "GetPartnerAppListForWebAPIKey", keyed: true, run: (c) => c.listPartnerApps({ publisherKey: KEY }) },
  { call: "GetNewsForAppAuthed", keyed: true, run: (c) => c.getNews({ appid: APPID, publisherKey: KEY }) },
  { call: "GetNewsForApp", keyed: false, run: (c) => c.getNews({ appid: APPID }) },
  { call: "appdetails", keyed: false, run: (c) => c.getStoreAvailability({ appid: APPID }) },
];

const UNAVAILABLE_FAULTS = [
  ["http5xx", /HTTP 503/, { status: 503 }],
  ["http429", /HTTP 429/, {}],
  ["reset", /./, {}],
  ["timeout", /timeout after 200 ms/, {}],
  ["latency", /timeout after 200 ms/, { ms: 400 }],
] as const;

describe.each(CALLS)("$call", ({ call, keyed, run }) => {
  it.each(UNAVAILABLE_FAULTS)("is unavailable on %s", async (kind, cause, extra) => {
    await fixture.sim.control.injectFault({ call, kind, ...extra });
    expect(await run(client)).toEqual({ kind: "unavailable", cause: expect.stringMatching(cause) });
  });

  it("answers through a short added latency", async () => {
    await fixture.sim.control.injectFault({ call, kind: "latency", ms: 50 });
    // Well inside the deadline even on a loaded CI machine (200 ms left 150 ms of margin, which
    // a busy run once used up: a timing, not the behaviour under test).
    expect((await run(patient)).kind).not.toBe("unavailable");
  });

  it.runIf(keyed)("is refused with keyRejected when the key is rejected", async () => {
    await fixture.sim.control.injectFault({ call, kind: "rejectKey" });
    const result = await run(client);
    expect(result).toMatchObject({ kind: "refused", code: "HTTP_403", keyRejected: true });
    expect(JSON.stringify(result)).not.toContain(KEY);
  });
});

describe("retries", () => {
  it.each([
    ["QueryTxn", (c: SteamPlatform) => c.queryTxn(ref)],
    [
      "GetUserInfo",
      (c: SteamPlatform) => c.getUserInfo({ publisherKey: KEY, sandbox: false, appid: APPID, steamid: STEAMID }),
    ],
    [
      "AuthenticateUserTicket",
      (c: SteamPlatform) => c.authenticateTicket({ publisherKey: KEY, appid: APPID, ticket: "AB" }),
    ],
  ] as const)("retries the read %s with backoff until it answers", async (call, run) => {
    const retrying = fixture.client({ readRetries: 2, retryBackoffMs: 5 });
    await fixture.sim.control.injectFault({ call, kind: "http5xx", times: 2 });
    expect((await run(retrying)).kind).not.toBe("unavailable");
    expect(await fixture.sim.control.listCalls({ call })).toHaveLength(3);
  });

  it("never retries a write", async () => {
    const retrying = fixture.client({ readRetries: 3, retryBackoffMs: 5 });
    await fixture.sim.control.injectFault({ call: "FinalizeTxn", kind: "http5xx" });
    expect((await retrying.finalizeTxn(ref)).kind).toBe("unavailable");
    expect(await fixture.sim.control.listCalls({ call: "FinalizeTxn" })).toHaveLength(1);
  });

  it("does not retry a rejected key (403s invite IP rate limits, reference 1.2)", async () => {
    const retrying = fixture.client({ readRetries: 3, retryBackoffMs: 5 });
    await retrying.listPartnerApps({ publisherKey: "wrong" });
    expect(await fixture.sim.control.listCalls()).toHaveLength(1);
  });
});

describe("a reply lost after FinalizeTxn committed", () => {
  it("is unavailable, and QueryTxn then shows Succeeded (reference 1.7)", async () => {
    const ticket = await fixture.sim.control.mintTicket({ steamid: STEAMID, appid: APPID, identity: IDENTITY });
    expect(ticket).toMatch(/^[0-9A-F]+$/);
    await CALLS[2]?.run(client);
    await fixture.sim.control.approveOrder(BIG_ORDERID, { sandbox: true });
    await fixture.sim.control.injectFault({ call: "FinalizeTxn", kind: "resetAfterCommit" });
    expect((await client.finalizeTxn(ref)).kind).toBe("unavailable");
    expect(await client.queryTxn(ref)).toMatchObject({ kind: "ok", value: { status: "Succeeded" } });
  });
});

describe("the publisher key stays secret", () => {
  it("is absent from results, log lines and URLs across failures", async () => {
    const results: unknown[] = [];
    for (const kind of ["rejectKey", "http5xx", "timeout", "reset"] as const) {
      for (const { call, run } of CALLS) {
        await fixture.sim.control.injectFault({ call, kind });
        results.push(await run(client));
      }
    }
    for (const { run } of CALLS) results.push(await run(client));
    results.push(await client.listPartnerApps({ publisherKey: `${KEY}-typo` }));

    expect(logLines.length).toBeGreaterThan(CALLS.length * 4);
    expect(logLines.join("\n")).not.toContain("PUBKEY-5F1E");
    expect(JSON.stringify(results, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("PUBKEY-5F1E");
    const calls = await fixture.sim.control.listCalls();
    expect(JSON.stringify(calls)).not.toContain("PUBKEY-5F1E");
  });
});
