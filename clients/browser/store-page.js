// The store page: funding as the campaign's visibility allows, the offers, a buy button.
// `config.json` (served next to it by `npm run dev`) names the service, the campaign key and
// which Steam to use; a game shipping this page writes its own config or inlines it.
import { createEncoreClient } from "./encore-client.js";
import { createSimulatorSteam } from "./steam-bridges.js";

// What each reason means for the player (docs/game-integration.md "Errors").
const MESSAGES = {
  CAMPAIGN_NOT_VERIFIED: "The store is not open yet.",
  CAMPAIGN_NOT_READY: "The store opens soon.",
  PUBLISHER_UNAVAILABLE: "Purchases are paused right now. Please try again later.",
  PUBLISHER_LIMIT_REACHED: "Purchases are paused for now. Please try again later.",
  OFFER_INACTIVE: "This offer is no longer on sale.",
  ORDER_REFUSED: "Steam could not start this purchase. Nothing was charged.",
  PLAYER_NOT_AUTHENTICATED: "Steam could not confirm your account. Restart the game and try again.",
  NOT_FOUND: "This store is not available.",
  STATE_FAILED: "Steam did not complete the purchase. Nothing was charged.",
  NO_STEAM_TICKET: "Steam is not available. Is the Steam client running?",
  RATE_LIMITED: "The store is busy. Please try again in a moment.",
  UNAVAILABLE: "The store can't be reached right now. Please try again in a moment.",
};
const THANKS = "Thank you! Your purchase keeps the servers running.";
// Steam's answer did not come in time: if the player approved, the service credits it anyway.
const NO_ANSWER =
  "Steam did not confirm the purchase in time. If you approved it, it will be credited within a few minutes.";

const $ = (id) => document.getElementById(id);

function money(m) {
  if (!m) return "";
  const cents = String(Math.floor((m.nanos ?? 0) / 10_000_000)).padStart(2, "0");
  return `${m.currencyCode === "USD" ? "$" : `${m.currencyCode} `}${m.units ?? "0"}.${cents}`;
}

function say(text, kind = "") {
  $("status").textContent = text;
  $("status").className = kind;
}

function messageFor(reason) {
  if (reason === "NETWORK") {
    // A browser reports a CORS refusal exactly as an unreachable service.
    return `Can't reach the campaign service from this page (${location.origin}). If the service is up, its operator has not allowed this origin: ask for ${location.origin} to be added to the allowed origins.`;
  }
  return MESSAGES[reason] ?? "Something went wrong. Please try again later.";
}

function showFunding(funding) {
  const days = funding.runwayDays === undefined ? undefined : Number(funding.runwayDays);
  let text;
  if (funding.visibility === "FUNDING_VISIBILITY_EXACT_BALANCE" && funding.balance) {
    text = `${money(funding.balance)} of server credit`;
    if (days !== undefined) text += `, about ${days} days at the current rate`;
  } else if (funding.visibility === "FUNDING_VISIBILITY_RUNWAY" && days !== undefined) {
    text = `About ${days} days of servers left`;
  } else {
    text = funding.funded ? "The servers are funded" : "The servers are not funded yet";
  }
  $("funding-text").textContent = text;
  const fill = days !== undefined ? Math.min(1, days / 30) : funding.funded ? 1 : 0;
  $("meter-fill").style.width = `${Math.round(fill * 100)}%`;
}

function showOverlay(orderId, offerName) {
  $("overlay-text").textContent = `Authorize the purchase of "${offerName}"? (order ${orderId})`;
  $("overlay").hidden = false;
  return new Promise((resolve) => {
    for (const answer of ["approve", "decline", "dismiss"]) {
      $(`overlay-${answer}`).onclick = () => {
        $("overlay").hidden = true;
        resolve(answer);
      };
    }
  });
}

async function main() {
  const config = await (await fetch("config.json")).json();
  let offerName = "";
  const steam = createSimulatorSteam({ ...config.steam, showOverlay: (orderId) => showOverlay(orderId, offerName) });
  const encore = createEncoreClient({
    baseUrl: config.apiUrl,
    campaignKey: config.campaignKey,
    steam,
    retry: config.retry,
    authorizationTimeoutMs: config.authorizationTimeoutMs,
  });

  let purchasable = false;
  const refresh = async () => {
    try {
      showFunding(await encore.getFunding());
      const list = await encore.listOffers();
      purchasable = list.purchasable;
      renderOffers(list.offers ?? []);
      if (!purchasable) say(messageFor(list.unavailableReason), "error");
    } catch (error) {
      $("funding-text").textContent = "Funding unavailable";
      say(messageFor(error.reason), "error");
    }
  };

  const renderOffers = (offers) => {
    $("offers").replaceChildren(
      ...offers.map((offer) => {
        const item = document.createElement("li");
        const text = document.createElement("div");
        text.innerHTML = '<div class="name"></div><div class="description"></div>';
        text.querySelector(".name").textContent = `${offer.displayName} · ${money(offer.price)}`;
        text.querySelector(".description").textContent = offer.description;
        const button = document.createElement("button");
        button.textContent = "Buy";
        button.disabled = !purchasable;
        button.onclick = () => buy(offer);
        item.append(text, button);
        return item;
      }),
    );
  };

  const buy = async (offer) => {
    offerName = offer.displayName;
    for (const button of document.querySelectorAll("#offers button")) button.disabled = true;
    say("Waiting for Steam…");
    const result = await encore.buy(offer.offerId, { onOverlay: (orderId) => void steam.playOverlay(orderId) });
    if (result.outcome === "credited" || result.outcome === "pending") {
      say(THANKS, "thanks");
      if (result.funding) showFunding(result.funding);
    } else if (result.outcome === "timed_out") {
      // The client no longer listens for this order: the stand-in overlay goes with it.
      $("overlay").hidden = true;
      say(NO_ANSWER);
    } else if (result.outcome === "cancelled") {
      say("Purchase cancelled. Nothing was charged.");
    } else {
      say(messageFor(result.reason), "error");
    }
    for (const button of document.querySelectorAll("#offers button")) button.disabled = !purchasable;
  };

  await refresh();
}

main();
