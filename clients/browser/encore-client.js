// The Encore Campaigns client for a browser, Electron or NW.js game: the four public calls and
// the rules a game must keep (spec 3.1, 4.3 to 4.5), with plain fetch and no build step.
//
//   const encore = createEncoreClient({ baseUrl, campaignKey, steam });
//   await encore.getFunding();  await encore.listOffers();
//   const result = await encore.buy(offerId, { onOverlay(orderId) {} });
//   // result.outcome: "credited" | "pending" | "cancelled" | "timed_out" | "failed" (result.reason)

export const TICKET_IDENTITY = "encore-campaign";

const RETRYABLE = new Set([0, 429, 502, 503, 504]);
const STATUS_REASONS = {
  400: "INVALID_ARGUMENT",
  404: "NOT_FOUND",
  409: "REQUEST_ID_CONFLICT",
  429: "RATE_LIMITED",
  502: "UNAVAILABLE",
  503: "UNAVAILABLE",
  504: "UNAVAILABLE",
};

// Spec 4.3: begin's language is ISO 639-1; Steam names languages ("english", "schinese").
// The same table as the service's src/platform/steam/steam-language.ts.
const STEAM_NAME_TO_ISO = {
  arabic: "ar",
  bulgarian: "bg",
  schinese: "zh",
  tchinese: "zh",
  czech: "cs",
  danish: "da",
  dutch: "nl",
  english: "en",
  finnish: "fi",
  french: "fr",
  german: "de",
  greek: "el",
  hungarian: "hu",
  indonesian: "id",
  italian: "it",
  japanese: "ja",
  koreana: "ko",
  norwegian: "no",
  polish: "pl",
  portuguese: "pt",
  brazilian: "pt",
  romanian: "ro",
  russian: "ru",
  spanish: "es",
  latam: "es",
  swedish: "sv",
  thai: "th",
  turkish: "tr",
  ukrainian: "uk",
  vietnamese: "vi",
};

export function steamLanguageToIso(language) {
  const normalized = String(language ?? "")
    .trim()
    .toLowerCase();
  if (Object.hasOwn(STEAM_NAME_TO_ISO, normalized)) return STEAM_NAME_TO_ISO[normalized];
  const primary = normalized.split(/[-_]/, 1)[0];
  return Object.values(STEAM_NAME_TO_ISO).includes(primary) ? primary : "en";
}

/** A failed call: `reason` is the ErrorInfo reason (spec 7) or a name for the status. */
export class EncoreError extends Error {
  constructor(reason, status, message, attempts) {
    super(`${reason}: ${message}`);
    this.reason = reason;
    this.status = status;
    this.attempts = attempts;
  }
}

export function createEncoreClient(options) {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const retry = { maxAttempts: 6, initialBackoffMs: 500, maxBackoffMs: 8000, ...options.retry };
  // Spec 3.1 / 8: poll complete for CREDITED about every two seconds, about ten times.
  const poll = { intervalMs: 2000, maxPolls: 10, ...options.poll };
  // How long the player may take in the overlay before buy stops waiting for Steam's answer.
  const authorizationTimeoutMs = options.authorizationTimeoutMs ?? 5 * 60_000;
  const steam = options.steam;
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // The order whose callback is awaited; "" while begin is in flight (callbacks are kept).
  let awaited = null;
  const early = new Map();
  let buying = false;

  steam?.onAuthorizationResponse((_appId, orderId, authorized) => {
    const order = String(orderId);
    if (awaited === "") early.set(order, authorized);
    else if (awaited && awaited.orderId === order) {
      const { resolve } = awaited;
      awaited = null;
      resolve(authorized);
    } else options.onCallbackIgnored?.(order);
  });

  // One call, retried with backoff and jitter on network failure, 429, 502, 503, 504 (spec 4.5).
  async function post(path, body) {
    for (let attempt = 1; ; attempt++) {
      let status = 0;
      let text = "";
      let failure = "network failure";
      try {
        const response = await fetch(`${baseUrl}${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        // A browser reports a CORS refusal exactly like an unreachable host.
        failure = String(error?.message ?? error);
      }
      if (status >= 200 && status < 300) return { body: JSON.parse(text), attempts: attempt };
      if (!RETRYABLE.has(status) || attempt >= retry.maxAttempts) throw toError(status, text, failure, attempt);
      const backoff =
        Math.min(retry.maxBackoffMs, retry.initialBackoffMs * 2 ** (attempt - 1)) * (0.8 + 0.4 * Math.random());
      options.onRetry?.({ path, attempt, status, backoffMs: backoff });
      await sleep(backoff);
    }
  }

  const key = () => ({ campaignKey: options.campaignKey });

  async function complete(purchase, orderId, authorized) {
    const { body } = await post("/v1/public/purchases:complete", { ...key(), purchase, orderId, authorized });
    return body;
  }

  return {
    getFunding: async () => (await post("/v1/public/funding:get", key())).body,
    listOffers: async () => (await post("/v1/public/offers:list", key())).body,

    /** Ticket, begin (retried on its requestId), the player's answer, complete (polled). */
    async buy(offerId, hooks = {}) {
      // One purchase at a time: the callback is matched to the one order being bought.
      if (buying) return { outcome: "failed", reason: "PURCHASE_IN_PROGRESS" };
      buying = true;
      try {
        return await buyOnce(offerId, hooks);
      } finally {
        buying = false;
      }
    },
  };

  async function buyOnce(offerId, hooks) {
    let ticket;
    try {
      ticket = await steam.getWebApiTicket(TICKET_IDENTITY);
    } catch (error) {
      return { outcome: "failed", reason: "NO_STEAM_TICKET", message: String(error?.message ?? error) };
    }
    // Spec 4.3 rule 3 / 4.5: a fresh requestId per attempt makes begin safe to retry.
    const requestId = crypto.randomUUID();
    early.clear();
    awaited = "";
    let handle;
    try {
      handle = await post("/v1/public/purchases:begin", {
        ...key(),
        offerId,
        authTicket: ticket,
        language: steamLanguageToIso(steam.gameLanguage()),
        requestId,
      });
    } catch (error) {
      awaited = null;
      return { outcome: "failed", reason: error.reason ?? "UNKNOWN", requestId };
    }
    const { purchase, orderId } = handle.body;
    // The overlay may answer before begin's response arrived (spec 3.1): keep that answer.
    const answered = early.has(orderId)
      ? Promise.resolve(early.get(orderId))
      : new Promise((resolve) => {
          awaited = { orderId, resolve };
        });
    if (early.has(orderId)) awaited = null;
    for (const other of early.keys()) if (other !== orderId) options.onCallbackIgnored?.(other);
    early.clear();
    hooks.onOverlay?.(orderId);
    const result = { orderId, requestId, beginAttempts: handle.attempts, polls: 0 };
    const authorized = await answeredWithin(answered, authorizationTimeoutMs);
    if (authorized === TIMED_OUT) {
      // Steam never answered: stop listening for this order. Nothing is completed here; if the
      // player approves later, the service settles the order on its own (spec 3.1).
      if (awaited?.orderId === orderId) awaited = null;
      return { ...result, outcome: "timed_out" };
    }
    try {
      let answer = await complete(purchase, orderId, authorized);
      while (answer.state === "STATE_AUTHORIZED" && result.polls < poll.maxPolls) {
        result.polls += 1;
        await sleep(poll.intervalMs);
        answer = await complete(purchase, orderId, true);
      }
      const outcome = {
        STATE_CREDITED: "credited",
        STATE_AUTHORIZED: "pending",
        STATE_CANCELLED: "cancelled",
        STATE_INITIATED: "cancelled",
      }[answer.state];
      return {
        ...result,
        state: answer.state,
        funding: answer.funding,
        outcome: outcome ?? "failed",
        reason: outcome ? undefined : "STATE_FAILED",
      };
    } catch (error) {
      return { ...result, outcome: "failed", reason: error.reason ?? "UNKNOWN" };
    }
  }
}

const TIMED_OUT = Symbol("timed out");

/** The player's answer, or TIMED_OUT when none came within `ms`. */
async function answeredWithin(answered, ms) {
  let timer;
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function toError(status, text, failure, attempts) {
  if (status === 0) return new EncoreError("NETWORK", 0, failure, attempts);
  let reason = STATUS_REASONS[status] ?? `HTTP_${status}`;
  let message = "";
  try {
    const body = JSON.parse(text);
    message = body.message ?? "";
    for (const detail of body.details ?? []) {
      if (String(detail["@type"]).endsWith("google.rpc.ErrorInfo")) reason = detail.reason;
    }
  } catch {
    message = `HTTP ${status} without a Status body`;
  }
  return new EncoreError(reason, status, message, attempts);
}
