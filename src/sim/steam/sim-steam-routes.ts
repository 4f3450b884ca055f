// The Steam paths the simulator serves, with their verbs and versions (reference 2-6). Paths are
// matched as `/<Interface>/<Method>/v<N>` with or without the trailing slash, and the legacy
// zero-padded version spelling (`v0002`) is accepted (reference 1.1).

import type { SimAnswer, SimRequest } from "./sim-answer.js";
import { authenticateUserTicket } from "./sim-auth-handler.js";
import { appDetails, getNewsForApp, getPartnerAppList } from "./sim-catalog-handlers.js";
import { getReport } from "./sim-get-report.js";
import { initTxn } from "./sim-init-txn.js";
import { checkAuthentication, keyValueAnswer, OPENID_PATH } from "./sim-openid.js";
import type { Iface, SimState, SteamCallName } from "./sim-state.js";
import { finalizeTxn, getUserInfo, queryTxn } from "./sim-txn-handlers.js";

/** The storefront is served under this prefix of the same server (storeUrl = url + STORE_PREFIX). */
export const STORE_PREFIX = "/store";

export type SteamRoute = {
  readonly call: SteamCallName;
  readonly method: "GET" | "POST";
  readonly iface?: Iface;
  readonly handle: (state: SimState, req: SimRequest) => SimAnswer;
};

function microTxnRoutes(iface: Iface): Array<[string, SteamRoute]> {
  const name = iface === "live" ? "ISteamMicroTxn" : "ISteamMicroTxnSandbox";
  return [
    [`/${name}/GetUserInfo/v2`, { call: "GetUserInfo", method: "GET", iface, handle: getUserInfo }],
    [`/${name}/InitTxn/v3`, { call: "InitTxn", method: "POST", iface, handle: (s, r) => initTxn(s, r, iface) }],
    [`/${name}/QueryTxn/v3`, { call: "QueryTxn", method: "GET", iface, handle: (s, r) => queryTxn(s, r, iface) }],
    [
      `/${name}/FinalizeTxn/v2`,
      { call: "FinalizeTxn", method: "POST", iface, handle: (s, r) => finalizeTxn(s, r, iface) },
    ],
    [`/${name}/GetReport/v5`, { call: "GetReport", method: "GET", iface, handle: (s, r) => getReport(s, r, iface) }],
  ];
}

const ROUTES = new Map<string, SteamRoute>([
  [
    "/ISteamUserAuth/AuthenticateUserTicket/v1",
    { call: "AuthenticateUserTicket", method: "GET", handle: authenticateUserTicket },
  ],
  ...microTxnRoutes("live"),
  ...microTxnRoutes("sandbox"),
  [
    "/ISteamApps/GetPartnerAppListForWebAPIKey/v2",
    { call: "GetPartnerAppListForWebAPIKey", method: "GET", handle: getPartnerAppList },
  ],
  [
    "/ISteamNews/GetNewsForApp/v2",
    { call: "GetNewsForApp", method: "GET", handle: (s, r) => getNewsForApp(s, r, false) },
  ],
  [
    "/ISteamNews/GetNewsForAppAuthed/v2",
    { call: "GetNewsForAppAuthed", method: "GET", handle: (s, r) => getNewsForApp(s, r, true) },
  ],
  [`${STORE_PREFIX}/api/appdetails`, { call: "appdetails", method: "GET", handle: appDetails }],
  // The OpenID provider's direct verification (reference 11); its GET and the sign-in form's
  // POST are the browser's pages (sim-request-handler.ts).
  [
    OPENID_PATH,
    {
      call: "check_authentication",
      method: "POST",
      handle: (s, r) => ({ status: 200, text: keyValueAnswer(checkAuthentication(s, r.params)) }),
    },
  ],
]);

export function findSteamRoute(pathname: string): SteamRoute | undefined {
  const normalized = pathname.replace(/\/+$/, "").replace(/\/v0*(\d+)$/, "/v$1");
  return ROUTES.get(normalized);
}
