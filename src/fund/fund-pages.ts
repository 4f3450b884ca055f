import { randomUUID } from "node:crypto";
import type { UnavailableReason } from "../domain/availability.js";
import type { PublicFundingView } from "../domain/funding.js";
import type { PurchaseState } from "../domain/purchase-state.js";
import { webFundingPath as pagePath } from "../domain/web-funding.js";
import type { PublicOfferRow } from "../store/public-campaigns.js";
import { document, type Html, html } from "./html.js";
import { dollars, fundingWords, REASON_WORDS } from "./words.js";

// The funding page's pages: the campaign's page, a purchase's result, and a message page for
// everything that stops (each says what happened and where to go next).

export interface CampaignPageView {
  campaignKey: string;
  gameName: string;
  campaignName: string;
  webFundingEnabled: boolean;
  funding: PublicFundingView;
  offers: readonly PublicOfferRow[];
  /** Signed in: the player's Steam id and the token the session's forms carry. */
  player?: { steamId: string; formToken: string };
  /** Whether this connection can buy on the web (Steam takes an IPv4 address, reference 3.5). */
  ipv4: boolean;
}

export function campaignPage(view: CampaignPageView): string {
  const path = pagePath(view.campaignKey);
  const reason = view.funding.unavailableReason;
  const canBuy = view.webFundingEnabled && reason === "" && view.ipv4;
  return document(
    `Fund ${view.gameName}`,
    html`<h1>Fund ${view.gameName}</h1>
<p class="muted">${view.campaignName}</p>
<section aria-labelledby="funding-heading">
<h2 id="funding-heading">Funding</h2>
<ul id="funding">${fundingWords(view.funding).map((line) => html`<li>${line}</li>`)}</ul>
</section>
${availability(view, reason)}
${view.player ? signOutSection(view.player, path) : canBuy && signInSection(path)}
<section aria-labelledby="offers-heading">
<h2 id="offers-heading">Offers</h2>
${
  view.offers.length === 0
    ? html`<p>No offers are on sale.</p>`
    : html`<ul class="offers">${view.offers.map((offer) => offerItem(offer, path, canBuy ? view.player : undefined))}</ul>`
}
</section>`,
  );
}

function availability(view: CampaignPageView, reason: UnavailableReason | ""): Html | undefined {
  if (!view.webFundingEnabled) {
    return problem("Funding from the web is turned off for this campaign. You can still fund it from inside the game.");
  }
  if (reason !== "") return html`<div class="notice problem" id="unavailable"><p>${REASON_WORDS[reason]}</p></div>`;
  if (!view.ipv4) {
    return problem(
      "Steam approves web purchases only for IPv4 connections, and this one is IPv6. Try another network, or fund the campaign from inside the game.",
    );
  }
  return undefined;
}

function signInSection(path: string): Html {
  return html`<section aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">Sign in</h2>
<p>Sign in through Steam to buy. Steam tells this page your Steam id and nothing else.</p>
<form method="post" action="${path}/sign-in"><button type="submit">Sign in through Steam</button></form>
</section>`;
}

function signOutSection(player: NonNullable<CampaignPageView["player"]>, path: string): Html {
  return html`<section aria-labelledby="player-heading">
<h2 id="player-heading">Signed in</h2>
<p id="player">Signed in through Steam as player ${player.steamId}.</p>
<form method="post" action="${path}/sign-out">
<input type="hidden" name="formToken" value="${player.formToken}">
<button type="submit" class="secondary">Sign out</button>
</form>
</section>`;
}

function offerItem(offer: PublicOfferRow, path: string, player: CampaignPageView["player"]): Html {
  const price = dollars(offer.priceNanos);
  return html`<li>
<div class="offer-text"><div class="offer-name">${offer.displayName}</div>
${offer.description !== "" && html`<div>${offer.description}</div>`}
<div class="price">${price}</div></div>
${
  player &&
  html`<form method="post" action="${path}/purchases">
<input type="hidden" name="formToken" value="${player.formToken}">
<input type="hidden" name="offerId" value="${offer.id}">
<input type="hidden" name="requestId" value="${randomUUID()}">
<button type="submit" aria-label="Buy for ${price}: ${offer.displayName}">Buy for ${price}</button>
</form>`
}
</li>`;
}

function problem(text: string): Html {
  return html`<div class="notice problem" role="status"><p>${text}</p></div>`;
}

/** What a web purchase came to, in words (spec 3.1's states, and ABANDONED). */
const RESULT_WORDS: Record<PurchaseState | "ABANDONED", { title: string; text: string }> = {
  CREDITED: { title: "Thank you!", text: "Your purchase is credited: it keeps the servers running." },
  AUTHORIZED: {
    title: "Approved",
    text: "Steam approved your purchase and it is being settled; it is credited within a couple of minutes.",
  },
  INITIATED: {
    title: "Not approved yet",
    text: "Steam has not approved this order yet. Approve it on Steam, or come back to this page once you did.",
  },
  CANCELLED: { title: "Declined", text: "You declined the order on Steam. Nothing was charged." },
  FAILED: { title: "Not completed", text: "Steam did not complete the order. Nothing was charged." },
  ABANDONED: {
    title: "Order expired",
    text: "This order was abandoned because its approval did not come back in time. Nothing was charged or credited.",
  },
};

export interface ResultView {
  campaignKey: string;
  gameName: string;
  state: keyof typeof RESULT_WORDS;
  offerName: string;
  priceNanos: bigint;
  /** Funding as the campaign's visibility shows it, read after the purchase; absent when unreadable. */
  funding: PublicFundingView | undefined;
  /** Where the player approves the order still waiting for approval. */
  approveUrl?: string;
}

export function resultPage(view: ResultView): string {
  const words = RESULT_WORDS[view.state];
  const path = pagePath(view.campaignKey);
  return document(
    `${words.title}: fund ${view.gameName}`,
    html`<h1>${words.title}</h1>
<div class="notice${view.state === "FAILED" ? " problem" : ""}" role="status" id="result" data-state="${view.state}">
<p>${words.text}</p>
<p>${view.offerName}, ${dollars(view.priceNanos)}.</p>
</div>
${view.approveUrl && html`<p><a class="button" href="${view.approveUrl}">Approve on Steam</a></p>`}
${
  view.funding &&
  html`<section aria-labelledby="funding-heading">
<h2 id="funding-heading">Funding of ${view.gameName}</h2>
<ul id="funding">${fundingWords(view.funding).map((line) => html`<li>${line}</li>`)}</ul>
</section>`
}
<p><a href="${path}">Back to ${view.gameName}</a></p>`,
  );
}

/** A page for anything that stops a step: what happened, and a way on. */
export function messagePage(title: string, text: string, back?: { href: string; label: string }): string {
  return document(
    title,
    html`<h1>${title}</h1>
<div class="notice problem" role="alert" id="message"><p>${text}</p></div>
${back && html`<p><a href="${back.href}">${back.label}</a></p>`}`,
  );
}
