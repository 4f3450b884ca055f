import { Code, ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { describe, expect, it } from "vitest";
import { createFailedAuthLimit } from "../../src/server/interceptors/failed-auth-limit.js";

// docs/abuse-limits.md "Failed authentication": the budget of failures an address has per window,
// taken before any work and kept only by failures.

const N = 3;
const limitOf = (refusals: string[] = []) =>
  createFailedAuthLimit({
    limiter: new RateLimiterMemory({ keyPrefix: "test", points: N, duration: 60 }),
    logger: pino({ level: "silent" }),
    onRefused: () => refusals.push("failed_auth"),
  });
const code = async (work: Promise<unknown>) =>
  work.then(
    () => "ok",
    (error: unknown) => Code[ConnectError.from(error).code],
  );

describe("failed authentications per address", () => {
  it("lets N failures through, then refuses without running the authentication", async () => {
    const refusals: string[] = [];
    const limit = limitOf(refusals);
    let ran = 0;
    const fail = () =>
      limit.attempt("192.0.2.1", async () => {
        ran += 1;
        return undefined;
      });
    for (let n = 0; n < N; n++) expect(await fail()).toBeUndefined();
    expect(await code(fail())).toBe("ResourceExhausted");
    expect(ran).toBe(N);
    expect(await code(limit.refuseIfSpent("192.0.2.1"))).toBe("ResourceExhausted");
    expect(refusals).toEqual(["failed_auth", "failed_auth"]);
  });

  it("never spends the budget on callers it recognised, nor on a credential it could not judge", async () => {
    const limit = limitOf();
    for (let n = 0; n < 3 * N; n++) expect(await limit.attempt("192.0.2.2", async () => "caller")).toBe("caller");
    const broken = limit.attempt("192.0.2.2", () => Promise.reject(new Error("database down")));
    await expect(broken).rejects.toThrow("database down");
    await new Promise((resolve) => setImmediate(resolve));
    for (let n = 0; n < N; n++) await limit.attempt("192.0.2.2", async () => undefined);
    expect(await code(limit.attempt("192.0.2.2", async () => "caller"))).toBe("ResourceExhausted");
  });

  it("counts attempts in flight, so a burst cannot pass the limit together", async () => {
    const limit = limitOf();
    let ran = 0;
    const slowFailure = () =>
      limit.attempt("192.0.2.3", async () => {
        ran += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
        return undefined;
      });
    const codes = await Promise.all(Array.from({ length: 2 * N }, () => code(slowFailure())));
    expect(codes.filter((c) => c === "ResourceExhausted")).toHaveLength(N);
    expect(ran).toBe(N);
  });

  it("counts an IPv6 address as its /64, and other addresses apart", async () => {
    const limit = limitOf();
    for (let n = 0; n < N; n++) await limit.attempt(`2001:db8:1:2::${n + 1}`, async () => undefined);
    expect(await code(limit.refuseIfSpent("2001:db8:1:2:ffff::9"))).toBe("ResourceExhausted");
    await limit.refuseIfSpent("2001:db8:1:3::1");
    await limit.refuseIfSpent("192.0.2.4");
    expect(await limit.attempt("192.0.2.4", async () => "caller")).toBe("caller");
  });
});
