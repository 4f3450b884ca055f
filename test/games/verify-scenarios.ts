import { expect } from "vitest";
import type { GameHarness, ScenarioRun } from "./game-harness.js";
import { AUTHORIZATION_TIMEOUT_MS, POLL_INTERVAL_MS, RETRY_INITIAL_BACKOFF_MS, SCENARIOS } from "./game-harness.js";
import type { GatewayExchange } from "./service-gateway.js";

/** The order id every runner's fake Steam delivers a callback for during "buy". */
export const OTHER_ORDER = "1234567890123";
/** The clients' default number of polls after the first complete (spec 3.1: about ten). */
const MAX_POLLS = 10;

/**
 * Checks what an engine's runner reported against what really happened: the simulator's order
 * book and call log and the service's store. A runner that printed OK without doing the work
 * fails here.
 */
export async function verifyScenarios(
  harness: GameHarness,
  run: ScenarioRun,
  /** Godot also runs its GodotSteam binding without Steam and its sample store screen. */
  options: { godotExtras?: boolean } = {},
): Promise<void> {
  expect(run.failed, run.output).toEqual([]);
  expect(run.code, run.output).toBe(0);
  const expected: string[] = [...SCENARIOS, ...(options.godotExtras ? ["no-steam", "sample-scene"] : [])];
  expect([...run.passed.keys()], run.output).toEqual(expected);
  const db = harness.server.db.database.prisma;
  const fact = (name: string, key: string) => String(run.passed.get(name)?.[key]);
  const purchase = (orderId: string) => db.purchase.findUniqueOrThrow({ where: { orderId: BigInt(orderId) } });

  // Bought and credited: Steam settled the order, the ledger holds the credit, and the funding
  // the runner read afterwards shows it on top of what it read before (exact balance shown).
  const bought = fact("buy", "orderId");
  expect((await harness.sim.control.getOrder(bought))?.status).toBe("Succeeded");
  expect((await purchase(bought)).state).toBe("CREDITED");
  expect(fact("buy", "state")).toBe("STATE_CREDITED");
  expect(BigInt(fact("buy", "balanceAfterUnits")) - BigInt(fact("buy", "balanceBeforeUnits"))).toBe(3n);
  // Another order's callback, delivered while the overlay was up, was ignored (spec 4.3 rule 4).
  expect(run.passed.get("buy")?.ignoredOrders).toEqual([OTHER_ORDER]);

  // The player said no in the overlay: the order failed as declined, the purchase cancelled.
  const declined = fact("decline", "orderId");
  expect(await harness.sim.control.getOrder(declined)).toMatchObject({ status: "Failed", declined: true });
  expect((await purchase(declined)).state).toBe("CANCELLED");
  expect(fact("decline", "outcome")).toBe("cancelled");

  // The overlay closed without an answer: Steam still has the order open; the game treated
  // INITIATED as "the player said no".
  const dismissed = fact("dismiss", "orderId");
  expect((await harness.sim.control.getOrder(dismissed))?.status).toBe("Init");
  expect(fact("dismiss", "state")).toBe("STATE_INITIATED");
  expect(fact("dismiss", "outcome")).toBe("cancelled");

  // Real 429s from the limited instance's rate limiter, each answered by waiting.
  expect(Number(fact("rate-limited", "retriesOn429"))).toBeGreaterThan(0);

  // The 503: InitTxn opened the order but its reply was lost; begin was retried with the same
  // requestId and came back with that very order, which was then credited. One order at Steam.
  const retried = fact("begin-503", "orderId");
  expect(Number(fact("begin-503", "beginAttempts"))).toBeGreaterThanOrEqual(2);
  const inits = await harness.sim.control.listCalls({ call: "InitTxn" });
  expect(inits.filter((call) => call.params.orderid === retried)).toHaveLength(1);
  // One Steam order and one purchase per buy (buy, decline, dismiss, begin-503, begin-retry,
  // complete-retry, settles-late, never-settles, callback-timeout, early-callback, the sample
  // screen's): a retry under a fresh requestId would have opened one more.
  const buys = options.godotExtras ? 11 : 10;
  expect(inits).toHaveLength(buys);
  expect(await db.purchase.count({ where: { campaignId: harness.shop.campaignId } })).toBe(buys);

  // Without Steam, no ticket: the buy ended before reaching the service (no sixth order above).
  if (options.godotExtras) expect(run.passed.get("no-steam")).toEqual({ reason: "NO_STEAM_TICKET" });

  // The sample store screen, pressed like a player, thanked them and shows the new balance.
  if (options.godotExtras) {
    const project = await db.project.findUniqueOrThrow({ where: { id: harness.shop.projectId } });
    const dollars = project.balanceNanos / 1_000_000_000n;
    const cents = (project.balanceNanos % 1_000_000_000n) / 10_000_000n;
    expect(run.passed.get("sample-scene")).toEqual({
      status: "Thank you! Your purchase keeps the servers running.",
      funding: `$${dollars}.${cents.toString().padStart(2, "0")} of server credit`,
      offer: "A week of servers - $5.00",
    });
  }
  expect((await purchase(retried)).state).toBe("CREDITED");
  const request = await db.purchaseRequest.findUniqueOrThrow({
    where: { campaignId_requestId: { campaignId: harness.shop.campaignId, requestId: fact("begin-503", "requestId") } },
  });
  expect(request.purchaseId).toBe((await purchase(retried)).id);
  await verifyRetries(harness, run);
  await verifyPolling(harness, run);
  await verifyCallbackTiming(harness, run);
}

const calls = (harness: GameHarness, path: string, match: (exchange: GatewayExchange) => boolean = () => true) =>
  harness.gateway.exchanges.filter((exchange) => exchange.path === `/v1/public/${path}` && match(exchange));
const outcomeOf = (exchange: GatewayExchange) => [exchange.fault, exchange.answered, exchange.forwarded];
const gaps = (exchanges: GatewayExchange[]) =>
  exchanges.slice(1).map((exchange, i) => exchange.atMs - (exchanges[i]?.atMs ?? exchange.atMs));
// A backoff is initial backoff x (0.8 to 1.2) at the first retry; a wait is never shorter than
// asked (the 10% covers timer rounding). Lower bounds only: how long anything took is not tested.
const waitedAtLeast = (exchanges: GatewayExchange[], ms: number) => {
  for (const gap of gaps(exchanges)) expect(gap).toBeGreaterThanOrEqual(ms * 0.9);
};
async function steamCalls(harness: GameHarness, call: "FinalizeTxn" | "InitTxn" | "QueryTxn", orderId: string) {
  return (await harness.sim.control.listCalls({ call })).filter((c) => c.params.orderid === orderId);
}
const purchaseState = async (harness: GameHarness, orderId: string) =>
  (await harness.server.db.database.prisma.purchase.findUniqueOrThrow({ where: { orderId: BigInt(orderId) } })).state;

/**
 * Spec 4.5's retry matrix beyond the 429 and the 503 above, played by the gateway in front of
 * the service: offers:list through a 502 and a reset; begin through a 502 and a reset that each
 * came after the service had opened the order, retried with the same requestId; complete through
 * a 504 after the service had credited, and a reset.
 */
async function verifyRetries(harness: GameHarness, run: ScenarioRun): Promise<void> {
  const facts = (name: string) => run.passed.get(name) ?? {};

  const offers = calls(harness, "offers:list");
  const firstFault = offers.findIndex((exchange) => exchange.fault !== undefined);
  const retried = offers.slice(firstFault, firstFault + 3);
  expect(retried.map(outcomeOf)).toEqual([
    ["status", 502, false],
    ["reset", "reset", false],
    [undefined, 200, true],
  ]);
  expect(offers.filter((exchange) => exchange.fault !== undefined)).toHaveLength(2);
  waitedAtLeast(retried.slice(0, 2), RETRY_INITIAL_BACKOFF_MS * 0.8);
  expect(facts("offers-retry")).toEqual({ offers: 2, retried: [502, 0] });

  const { orderId: beginOrder, requestId } = facts("begin-retry") as { orderId: string; requestId: string };
  const begins = calls(harness, "purchases:begin", (exchange) => exchange.body.requestId === requestId);
  expect(begins.map((exchange) => [...outcomeOf(exchange), exchange.upstreamStatus])).toEqual([
    ["status", 502, true, 200],
    ["reset", "reset", true, 200],
    [undefined, 200, true, 200],
  ]);
  // Every attempt carried the first one's requestId, and the service answered each with the
  // same order: Steam opened one.
  expect(
    calls(harness, "purchases:begin", (exchange) => exchange.fault !== undefined && exchange.fault !== "hold"),
  ).toEqual(begins.slice(0, 2));
  expect(begins.map((exchange) => exchange.upstreamBody?.orderId)).toEqual([beginOrder, beginOrder, beginOrder]);
  expect(await steamCalls(harness, "InitTxn", beginOrder)).toHaveLength(1);
  expect(facts("begin-retry")).toMatchObject({ beginAttempts: 3, retried: [502, 0] });
  expect(await purchaseState(harness, beginOrder)).toBe("CREDITED");
  const request = await harness.server.db.database.prisma.purchaseRequest.findUniqueOrThrow({
    where: { campaignId_requestId: { campaignId: harness.shop.campaignId, requestId } },
  });
  expect(request.purchaseId).toBe(
    (await harness.server.db.database.prisma.purchase.findUniqueOrThrow({ where: { orderId: BigInt(beginOrder) } })).id,
  );

  const completeOrder = String(facts("complete-retry").orderId);
  const completes = calls(harness, "purchases:complete", (exchange) => exchange.body.orderId === completeOrder);
  expect(completes.map(outcomeOf)).toEqual([
    ["status", 504, true],
    ["reset", "reset", false],
    [undefined, 200, true],
  ]);
  // The first complete credited; the retries were answered CREDITED again, captured once.
  expect(completes.map((exchange) => exchange.upstreamBody?.state)).toEqual([
    "STATE_CREDITED",
    undefined,
    "STATE_CREDITED",
  ]);
  waitedAtLeast(completes.slice(0, 2), RETRY_INITIAL_BACKOFF_MS * 0.8);
  expect(await steamCalls(harness, "FinalizeTxn", completeOrder)).toHaveLength(1);
  expect(facts("complete-retry")).toMatchObject({ outcome: "credited", retried: [504, 0] });
  expect(await purchaseState(harness, completeOrder)).toBe("CREDITED");
}

/**
 * Spec 3.1 / 8 polling, with Steam's FinalizeTxn unavailable (the simulator's http5xx fault):
 * settles-late sees STATE_AUTHORIZED at least twice and polls on to CREDITED; never-settles
 * polls ten times after the first complete, every time STATE_AUTHORIZED, then stops and reports
 * pending. How many polls a late settlement takes is the service's business: after an
 * unanswered FinalizeTxn it keeps the capture lease (2 x STEAM_TIMEOUT_MS) before capturing
 * again, so the count is bounded here, not fixed.
 */
async function verifyPolling(harness: GameHarness, run: ScenarioRun): Promise<void> {
  const late = run.passed.get("settles-late") ?? {};
  const lateOrder = String(late.orderId);
  const lateCompletes = calls(harness, "purchases:complete", (exchange) => exchange.body.orderId === lateOrder);
  const lateStates = lateCompletes.map((exchange) => exchange.upstreamBody?.state);
  expect(lateStates.at(-1)).toBe("STATE_CREDITED");
  expect(new Set(lateStates.slice(0, -1))).toEqual(new Set(["STATE_AUTHORIZED"]));
  expect(lateStates.length).toBeGreaterThanOrEqual(3);
  expect(lateStates.length).toBeLessThanOrEqual(1 + MAX_POLLS);
  // Each poll asks with authorized: true, after the poll interval.
  expect(new Set(lateCompletes.map((exchange) => exchange.body.authorized))).toEqual(new Set([true]));
  waitedAtLeast(lateCompletes, POLL_INTERVAL_MS);
  expect(late).toMatchObject({ outcome: "credited", state: "STATE_CREDITED", polls: lateStates.length - 1 });
  // Two refused captures, then the one that took: never a capture while another is unanswered.
  expect(await steamCalls(harness, "FinalizeTxn", lateOrder)).toHaveLength(3);
  expect((await harness.sim.control.getOrder(lateOrder))?.status).toBe("Succeeded");
  expect(await purchaseState(harness, lateOrder)).toBe("CREDITED");

  const never = run.passed.get("never-settles") ?? {};
  const neverOrder = String(never.orderId);
  const neverCompletes = calls(harness, "purchases:complete", (exchange) => exchange.body.orderId === neverOrder);
  expect(neverCompletes).toHaveLength(1 + MAX_POLLS);
  expect(new Set(neverCompletes.map((exchange) => exchange.upstreamBody?.state))).toEqual(
    new Set(["STATE_AUTHORIZED"]),
  );
  waitedAtLeast(neverCompletes, POLL_INTERVAL_MS);
  // Pending, not an error: the player has paid, the service settles the order on its own.
  expect(never).toEqual({
    orderId: neverOrder,
    outcome: "pending",
    state: "STATE_AUTHORIZED",
    polls: MAX_POLLS,
    reason: "",
  });
  const neverCaptures = await steamCalls(harness, "FinalizeTxn", neverOrder);
  expect(neverCaptures.length).toBeGreaterThanOrEqual(2);
  expect(neverCaptures.length).toBeLessThanOrEqual(1 + MAX_POLLS);
  expect((await harness.sim.control.getOrder(neverOrder))?.status).toBe("Approved");
  expect(await purchaseState(harness, neverOrder)).toBe("AUTHORIZED");
}

/**
 * The authorization callback too late and too early. callback-timeout: no answer within the
 * client's timeout, so it ends timed_out without calling complete and stops listening; the
 * player's approval that comes afterwards is ignored (the service's sweeper settles it later).
 * early-callback: the gateway held begin's answer until the player had approved and the callback
 * had been delivered; the client kept that callback and completed.
 */
async function verifyCallbackTiming(harness: GameHarness, run: ScenarioRun): Promise<void> {
  const timedOut = run.passed.get("callback-timeout") ?? {};
  const timedOutOrder = String(timedOut.orderId);
  expect(timedOut).toEqual({
    orderId: timedOutOrder,
    outcome: "timed_out",
    timeoutMs: AUTHORIZATION_TIMEOUT_MS,
    ignoredOrders: [timedOutOrder],
  });
  expect(calls(harness, "purchases:complete", (exchange) => exchange.body.orderId === timedOutOrder)).toEqual([]);
  expect((await harness.sim.control.getOrder(timedOutOrder))?.status).toBe("Approved");
  expect(await purchaseState(harness, timedOutOrder)).toBe("INITIATED");

  const early = run.passed.get("early-callback") ?? {};
  const earlyOrder = String(early.orderId);
  const begins = calls(harness, "purchases:begin", (exchange) => exchange.upstreamBody?.orderId === earlyOrder);
  expect(begins.map((exchange) => [exchange.fault, exchange.answered, exchange.release])).toEqual([
    ["hold", 200, { orderStatus: "Approved" }],
  ]);
  const completes = calls(harness, "purchases:complete", (exchange) => exchange.body.orderId === earlyOrder);
  expect(completes.map((exchange) => [exchange.body.authorized, exchange.upstreamBody?.state])).toEqual([
    [true, "STATE_CREDITED"],
  ]);
  expect(early).toEqual({ orderId: earlyOrder, outcome: "credited", overlayAnsweredBeforeBegin: true });
  expect((await harness.sim.control.getOrder(earlyOrder))?.status).toBe("Succeeded");
  expect(await purchaseState(harness, earlyOrder)).toBe("CREDITED");
}
