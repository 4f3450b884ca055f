// The real Steam partner Web API client: the only SteamPlatform implementation. The composition
// root passes STEAM_API_URL, STEAM_STORE_URL and STEAM_OPENID_URL in; tests point them at the
// simulator.

import { createAuthCall } from "./steam-auth-call.js";
import { createCatalogCalls } from "./steam-catalog-calls.js";
import { createSteamHttp, type SteamCallObserver, type SteamLogger } from "./steam-http.js";
import { createMicroTxnCalls } from "./steam-microtxn-calls.js";
import { createOpenIdCalls } from "./steam-openid-calls.js";
import type { SteamPlatform } from "./steam-platform.js";

export type SteamClientOptions = {
  /** Partner host, e.g. https://partner.steam-api.com (STEAM_API_URL). */
  readonly apiUrl: string;
  /** Storefront host, e.g. https://store.steampowered.com (STEAM_STORE_URL); `api/appdetails` is appended. */
  readonly storeUrl: string;
  /** Steam's OpenID 2.0 provider, e.g. https://steamcommunity.com/openid/login (STEAM_OPENID_URL). */
  readonly openIdUrl: string;
  /** Whole-call budget per attempt (connect, headers and body). Reference 1.7 suggests 10 s. */
  readonly timeoutMs: number;
  /** Extra attempts for reads (GET) that came back unavailable; writes are never retried. */
  readonly readRetries: number;
  /** First backoff between read attempts, doubled each time. Default 200 ms. */
  readonly retryBackoffMs?: number;
  readonly logger?: SteamLogger;
  /** Metrics and trace spans of every call; none when unset. */
  readonly observer?: SteamCallObserver;
};

export type SteamClient = SteamPlatform & {
  /** Closes the keep-alive connection pool. */
  close(): Promise<void>;
};

export function createSteamClient(options: SteamClientOptions): SteamClient {
  const http = createSteamHttp({ ...options, retryBackoffMs: options.retryBackoffMs ?? 200 });
  const { apiUrl } = options;
  return {
    ...createAuthCall({ http, apiUrl }),
    ...createMicroTxnCalls({ http, apiUrl }),
    ...createCatalogCalls({ http, apiUrl, storeUrl: options.storeUrl }),
    ...createOpenIdCalls({ http, openIdUrl: options.openIdUrl }),
    close: () => http.close(),
  };
}
