import type { OrderStatus } from "../../domain/purchase-state.js";

// The one port through which the service talks to "the platform" (spec 1, DESIGN 5).
// Nothing outside src/platform/steam/ knows Steam's wire format: callers see these types only.
// Every uint64 (steamid, orderid, transid, news gid) is a decimal string (reference 1.4).

/** The outcome of every platform call. */
export type PlatformResult<T> = { readonly kind: "ok"; readonly value: T } | PlatformRefused | PlatformUnavailable;

/**
 * The platform answered and said no. `code` is Steam's `errorcode` as a decimal string
 * ("101", "5", ...) or `HTTP_<status>` when the refusal was an HTTP status (401/403/400/404/405).
 * `keyRejected` is true when the publisher key itself was refused (HTTP 401/403, reference 1.6):
 * the caller marks the link STATE_CREDENTIAL_INVALID. `description` is for logs only.
 */
export type PlatformRefused = {
  readonly kind: "refused";
  readonly code: string;
  readonly description: string;
  readonly keyRejected: boolean;
};

/** The platform did not answer usably (timeout, connection error, 5xx, 429, garbled body): UNAVAILABLE / 503. */
export type PlatformUnavailable = { readonly kind: "unavailable"; readonly cause: string };

export type AuthenticateTicketInput = {
  readonly publisherKey: string;
  readonly appid: number;
  /** Hex string of the ticket bytes, as the game sent it. */
  readonly ticket: string;
};

export type AuthenticatedPlayer = {
  readonly steamid: string;
  /** Differs from steamid when the game is borrowed through Family Sharing. */
  readonly ownerSteamid: string;
  readonly vacBanned: boolean;
  readonly publisherBanned: boolean;
};

/** A call made with the publisher key for one app, on the live or the sandbox interface. */
export type AppCall = {
  readonly publisherKey: string;
  readonly sandbox: boolean;
  readonly appid: number;
};

export type GetUserInfoInput = AppCall & {
  readonly steamid: string;
  readonly ipaddress?: string;
};

export type WalletInfo = {
  readonly country: string;
  /** US state code, "" elsewhere. */
  readonly state: string;
  readonly currency: string;
  /** "Active" | "Trusted" | "Locked" (reference 3.4); "Locked" cannot purchase. */
  readonly status: string;
};

export type OrderItem = {
  readonly itemid: number;
  readonly qty: number;
  /** Line total (qty x unit price) in hundredths of the currency. */
  readonly amountCents: bigint;
  /** At most 128 characters, in `language`. */
  readonly description: string;
  /** Reporting group, never shown; at most 64 characters. */
  readonly category?: string;
};

export type InitTxnInput = AppCall & {
  /** Our unique unsigned 63-bit order id, decimal. */
  readonly orderid: string;
  readonly steamid: string;
  /** ISO 639-1 code or Steam language name; mapped by toSteamLanguage. */
  readonly language: string;
  /** ISO 4217. */
  readonly currency: string;
  readonly items: readonly OrderItem[];
  readonly ipaddress?: string;
  /** Set for an order the player approves in a browser rather than the game's overlay. */
  readonly webSession?: WebSession;
};

/**
 * A web purchase (reference 3.1 "Web flow", 3.5): InitTxn goes with `usersession=web` and the
 * player's address (`ipaddress` is then this one, whatever InitTxnInput.ipaddress says), and
 * Steam answers the `steamurl` the browser is sent to.
 */
export type WebSession = {
  readonly userSession: "web";
  /** The player's IPv4 address, dotted (x.x.x.x): Steam takes no other form. */
  readonly ipAddress: string;
};

export type TxnIds = { readonly orderid: string; readonly transid: string };

/** InitTxn's answer. */
export type OpenedTxn = TxnIds & {
  /**
   * Absolute http(s) URL where the player approves the order; set exactly when the input had a
   * webSession (the client answers unavailable when Steam leaves it out). The browser goes there
   * with a `returnurl` (webApprovalUrl).
   */
  readonly steamUrl?: string;
};

export type OrderRef = AppCall & { readonly orderid: string };

/** An order's item as QueryTxn reports it; `amountCents` is the charged amount minus VAT (reference 3.6). */
export type TxnItemState = Pick<OrderItem, "itemid" | "qty" | "amountCents"> & {
  readonly vatCents: bigint;
  readonly itemStatus: string;
};

export type TxnState = TxnIds & {
  readonly steamid: string;
  /** Reference 3.2 (the purchase state machine reads them). */
  readonly status: OrderStatus;
  readonly currency: string;
  /** RFC 3339 UTC of the last change. */
  readonly time: string;
  readonly country: string;
  readonly usstate: string;
  readonly items: readonly TxnItemState[];
};

/**
 * Which transactions a report lists (reference 3.9): SETTLEMENT is every in-game transaction
 * that settled, including those refunded or charged back later.
 */
export type ReportType = "GAMESALES" | "STEAMSTORESALES" | "SETTLEMENT" | "CHARGEBACK" | "SUBSCRIPTION";

export type GetReportInput = AppCall & {
  readonly type: ReportType;
  /** RFC 3339 UTC: transactions last updated at or after this time. */
  readonly time: string;
  /** 1..50000; the platform may return fewer even when more exist. */
  readonly maxResults: number;
};

/** One order of a report: its state as QueryTxn shows it, and when it was created. */
export type ReportOrder = TxnState & { readonly timecreated: string };

export type PartnerApp = { readonly appid: number; readonly name: string; readonly appType: string };

/**
 * onSale: listed and purchasable (or free). notSold: listed but not purchasable (coming soon, no package).
 * removed: the store does not list it (unknown, delisted, hidden or region-blocked: reference 5 cannot tell).
 */
export type StoreAvailability = { readonly status: "onSale" | "notSold" | "removed" };

export type GetNewsInput = {
  readonly appid: number;
  /** When given, the publisher variant (GetNewsForAppAuthed) is used, which also sees unreleased apps. */
  readonly publisherKey?: string;
  /** Default 20. */
  readonly count?: number;
  /** Feed names, e.g. ["steam_community_announcements"]. */
  readonly feeds?: readonly string[];
};

export type NewsItem = {
  readonly gid: string;
  readonly title: string;
  readonly url: string;
  readonly author: string;
  /** Steam BBCode for community announcements; sanitize before rendering. */
  readonly contents: string;
  readonly feedName: string;
  readonly feedLabel: string;
  /** Unix seconds. */
  readonly date: number;
  /** True for the studio's own Steam community announcements (feed_type 1). */
  readonly isAnnouncement: boolean;
  readonly tags: readonly string[];
};

/** Where the browser signs in through Steam (reference 11, OpenID 2.0 checkid_setup). */
export type OpenIdSignIn = {
  /** Absolute URL Steam sends the browser back to, carrying the relying party's own state. */
  readonly returnTo: string;
  /** The site's origin, shown to the player; returnTo must lie under it. */
  readonly realm: string;
};

/**
 * What Steam's OpenID provider said of an assertion (reference 11). `valid` only when every local
 * check held (id_res, OpenID 2.0, op_endpoint = STEAM_OPENID_URL, claimed_id = identity in Steam's
 * form, the required fields signed) and the provider vouched for it with check_authentication,
 * which it does once per assertion (a replay is not valid). Whether returnTo is the URL this
 * request came to, and whether the nonce was seen before, are the caller's to check.
 */
export type OpenIdVerdict =
  | {
      readonly valid: true;
      /** From claimed_id `https://steamcommunity.com/openid/id/<steamid64>`. */
      readonly steamid: string;
      /** `openid.return_to` as signed. */
      readonly returnTo: string;
      /** `openid.response_nonce` as signed: a UTC timestamp then a unique part. */
      readonly responseNonce: string;
    }
  | {
      readonly valid: false;
      /** The player chose not to sign in (`openid.mode=cancel`): nothing was forged. */
      readonly cancelled: boolean;
      /** For logs only. */
      readonly reason: string;
    };

export type SteamPlatform = {
  authenticateTicket(input: AuthenticateTicketInput): Promise<PlatformResult<AuthenticatedPlayer>>;
  getUserInfo(input: GetUserInfoInput): Promise<PlatformResult<WalletInfo>>;
  initTxn(input: InitTxnInput): Promise<PlatformResult<OpenedTxn>>;
  queryTxn(input: OrderRef): Promise<PlatformResult<TxnState>>;
  finalizeTxn(input: OrderRef): Promise<PlatformResult<TxnIds>>;
  /** One page of the reconciliation feed (GetReport v5), oldest update first. */
  getReport(input: GetReportInput): Promise<PlatformResult<readonly ReportOrder[]>>;
  listPartnerApps(input: { readonly publisherKey: string }): Promise<PlatformResult<readonly PartnerApp[]>>;
  getStoreAvailability(input: { readonly appid: number }): Promise<PlatformResult<StoreAvailability>>;
  getNews(input: GetNewsInput): Promise<PlatformResult<readonly NewsItem[]>>;
  /** The URL (STEAM_OPENID_URL with a checkid_setup request) the browser is sent to to sign in. */
  openIdSignInUrl(input: OpenIdSignIn): URL;
  /**
   * Checks the `openid.*` fields of a sign-in's return with the provider (check_authentication,
   * a POST never retried: the provider answers an assertion valid once). Fields not named
   * `openid.*` are ignored.
   */
  verifyOpenIdAssertion(fields: Readonly<Record<string, string>>): Promise<PlatformResult<OpenIdVerdict>>;
};
