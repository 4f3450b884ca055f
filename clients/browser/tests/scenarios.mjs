// The game-client scenarios of issue 12 (as clients/godot/tests/scenarios.gd and
// clients/unity/Tests/ScenarioRunner.cs), played through encore-client.js in Node, which has
// the same fetch as a browser, Electron or NW.js. Prints `SCENARIO <name> OK <json>` or
// `SCENARIO <name> FAIL <why>` (test/games/game-harness.ts reads them).
import { createEncoreClient, steamLanguageToIso } from "../encore-client.js";
import { createSimulatorSteam } from "../steam-bridges.js";

// Another game's order: its callback reaches this listener too and must change nothing.
const OTHER_ORDER = "1234567890123";
const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};
const offerId = env("ENCORE_OFFER_ID");
let nextAnswer = "approve";
let foreignCallback = false;
const ignored = [];
const retries = [];
let failures = 0;

const steam = createSimulatorSteam({
  controlUrl: `${env("STEAM_SIM_URL")}/_sim`,
  appId: Number(env("STEAM_APP_ID")),
  steamid: env("STEAM_ID"),
  language: "schinese",
  showOverlay: async () => nextAnswer,
});
const client = (baseUrl, onCallbackIgnored, more = {}) =>
  createEncoreClient({
    baseUrl,
    campaignKey: env("ENCORE_CAMPAIGN_KEY"),
    steam,
    // Fast backoff and polling keep the run short; the rules (and the ten polls) are the same.
    retry: { maxAttempts: 6, initialBackoffMs: Number(env("ENCORE_RETRY_INITIAL_BACKOFF_MS")), maxBackoffMs: 2000 },
    poll: { intervalMs: Number(env("ENCORE_POLL_INTERVAL_MS")) },
    onRetry: (retry) => retries.push(retry),
    onCallbackIgnored,
    ...more,
  });
const campaigns = client(env("ENCORE_BASE_URL"), (order) => ignored.push(order));
const limited = client(env("ENCORE_LIMITED_BASE_URL"));

// The overlay is up: first another order's callback (must be ignored), then the player's answer.
const overlay = {
  onOverlay(orderId) {
    if (foreignCallback) {
      foreignCallback = false;
      steam.deliverOtherOrderCallback(OTHER_ORDER);
    }
    void steam.playOverlay(orderId);
  },
};

const BEGIN = "/v1/public/purchases:begin";
const COMPLETE = "/v1/public/purchases:complete";
const OFFERS = "/v1/public/offers:list";

async function control(url, method = "POST", body = {}) {
  const response = await fetch(url, {
    method,
    headers: { "content-type": "application/json" },
    body: method === "GET" ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}
// The gateway in front of the service (test/games/service-gateway.ts) and the simulator's faults.
const gateway = (path, method, body) => control(`${env("ENCORE_GATEWAY_URL")}/_gateway${path}`, method, body);
const simFault = (fault) => control(`${env("STEAM_SIM_URL")}/_sim/faults`, "POST", fault);
const clearSimFaults = () => control(`${env("STEAM_SIM_URL")}/_sim/faults`, "DELETE");
const retriedOn = (path) => retries.filter((retry) => retry.path === path).map((retry) => retry.status);

async function approvedBuy() {
  retries.length = 0;
  nextAnswer = "approve";
  return campaigns.buy(offerId, overlay);
}

const scenarios = {
  async language() {
    const cases = {
      english: "en",
      schinese: "zh",
      tchinese: "zh",
      koreana: "ko",
      brazilian: "pt",
      latam: "es",
      "pt-BR": "pt",
      klingon: "en",
    };
    for (const [name, iso] of Object.entries(cases)) {
      if (steamLanguageToIso(name) !== iso) throw new Error(`${name} -> ${steamLanguageToIso(name)}, expected ${iso}`);
    }
    return {};
  },
  async buy() {
    const before = await campaigns.getFunding();
    const offers = await campaigns.listOffers();
    if (!offers.purchasable || offers.offers.length < 1) throw new Error("nothing to buy");
    if (offers.offers[0].offerId !== offerId) throw new Error(`first offer is ${offers.offers[0].offerId}`);
    nextAnswer = "approve";
    foreignCallback = true;
    ignored.length = 0;
    const result = await campaigns.buy(offers.offers[0].offerId, overlay);
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    return {
      orderId: result.orderId,
      state: result.state,
      balanceBeforeUnits: before.balance.units,
      balanceAfterUnits: result.funding.balance.units,
      ignoredOrders: [...ignored],
    };
  },
  decline: () => sayNo("decline"),
  dismiss: () => sayNo("dismiss"),
  async "rate-limited"() {
    retries.length = 0;
    for (let i = 0; i < 5; i++) await limited.getFunding();
    const on429 = retries.filter((retry) => retry.status === 429).length;
    if (on429 === 0) throw new Error("no 429 was met");
    return { reads: 5, retriesOn429: on429 };
  },
  async "begin-503"() {
    // Steam opens the order, but its reply to the service is lost: begin answers 503.
    const armed = await fetch(`${env("STEAM_SIM_URL")}/_sim/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ call: "InitTxn", kind: "resetAfterCommit" }),
    });
    if (!armed.ok) throw new Error("could not arm the fault");
    retries.length = 0;
    nextAnswer = "approve";
    const result = await campaigns.buy(offerId, overlay);
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    const on503 = retries.filter((retry) => retry.path === "/v1/public/purchases:begin" && retry.status === 503).length;
    if (on503 !== 1) throw new Error(`begin retried ${on503} times on 503`);
    return { orderId: result.orderId, requestId: result.requestId, beginAttempts: result.beginAttempts };
  },
  async "offers-retry"() {
    // The gateway answers 502, then drops the connection; the third attempt reaches the service.
    await gateway("/faults", "POST", { path: OFFERS, kind: "status", status: 502 });
    await gateway("/faults", "POST", { path: OFFERS, kind: "reset" });
    retries.length = 0;
    const list = await campaigns.listOffers();
    return { offers: list.offers.length, retried: retriedOn(OFFERS) };
  },
  async "begin-retry"() {
    // The service opened the order each time; the gateway lost its answer (502, then a reset).
    await gateway("/faults", "POST", { path: BEGIN, kind: "status", status: 502, forward: true });
    await gateway("/faults", "POST", { path: BEGIN, kind: "reset", forward: true });
    const result = await approvedBuy();
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    return {
      orderId: result.orderId,
      requestId: result.requestId,
      beginAttempts: result.beginAttempts,
      retried: retriedOn(BEGIN),
    };
  },
  async "complete-retry"() {
    // The service credited, the gateway answered 504; then a reset before the service saw it.
    await gateway("/faults", "POST", { path: COMPLETE, kind: "status", status: 504, forward: true });
    await gateway("/faults", "POST", { path: COMPLETE, kind: "reset" });
    const result = await approvedBuy();
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    return { orderId: result.orderId, outcome: result.outcome, retried: retriedOn(COMPLETE) };
  },
  async "settles-late"() {
    // Steam's FinalizeTxn is unavailable twice: complete answers STATE_AUTHORIZED until it is not.
    await simFault({ call: "FinalizeTxn", kind: "http5xx", status: 503, times: 2 });
    const result = await approvedBuy();
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    return { orderId: result.orderId, outcome: result.outcome, state: result.state, polls: result.polls };
  },
  async "never-settles"() {
    // More FinalizeTxn failures than the client ever polls: it stops, pending.
    await simFault({ call: "FinalizeTxn", kind: "http5xx", status: 503, times: 20 });
    const result = await approvedBuy().finally(clearSimFaults);
    if (result.outcome !== "pending") throw new Error(`ended ${JSON.stringify(result)}`);
    return {
      orderId: result.orderId,
      outcome: result.outcome,
      state: result.state,
      polls: result.polls,
      reason: result.reason ?? "",
    };
  },
  async "callback-timeout"() {
    // The overlay is up and Steam never answers within the client's timeout.
    const timeoutMs = Number(env("ENCORE_AUTHORIZATION_TIMEOUT_MS"));
    const late = [];
    const patient = client(env("ENCORE_BASE_URL"), (order) => late.push(order), { authorizationTimeoutMs: timeoutMs });
    const result = await patient.buy(offerId, { onOverlay() {} });
    if (result.outcome !== "timed_out") throw new Error(`ended ${JSON.stringify(result)}`);
    // The player approves after all: the client no longer listens for that order.
    nextAnswer = "approve";
    await steam.playOverlay(result.orderId);
    return { orderId: result.orderId, outcome: result.outcome, timeoutMs, ignoredOrders: late };
  },
  async "early-callback"() {
    // The gateway holds begin's answer; meanwhile the player approves and Steam's callback comes.
    await gateway("/faults", "POST", { path: BEGIN, kind: "hold" });
    let delivered = false;
    let beforeBegin;
    const buying = campaigns.buy(offerId, {
      onOverlay() {
        beforeBegin = delivered;
      },
    });
    let held = [];
    for (let i = 0; i < 200 && held.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      ({ held } = await gateway("/held", "GET"));
    }
    if (held.length !== 1) throw new Error(`the gateway holds ${held.length} answers`);
    nextAnswer = "approve";
    await steam.playOverlay(held[0].body.orderId);
    delivered = true;
    await gateway("/release", "POST");
    const result = await buying;
    if (result.outcome !== "credited") throw new Error(`ended ${JSON.stringify(result)}`);
    return { orderId: result.orderId, outcome: result.outcome, overlayAnsweredBeforeBegin: beforeBegin };
  },
};

async function sayNo(answer) {
  nextAnswer = answer;
  const result = await campaigns.buy(offerId, overlay);
  if (result.outcome !== "cancelled") throw new Error(`ended ${JSON.stringify(result)}`);
  return { orderId: result.orderId, state: result.state, outcome: result.outcome };
}

for (const [name, scenario] of Object.entries(scenarios)) {
  try {
    console.log(`SCENARIO ${name} OK ${JSON.stringify(await scenario())}`);
  } catch (error) {
    failures += 1;
    console.log(`SCENARIO ${name} FAIL ${String(error?.message ?? error).replaceAll("\n", " ")}`);
  }
}
process.exitCode = failures > 0 ? 1 : 0;
