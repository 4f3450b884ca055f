// GetPartnerAppListForWebAPIKey (reference 4), storefront appdetails (reference 5) and
// GetNewsForApp / GetNewsForAppAuthed (reference 6): plain payloads, no `response` wrapper.

import {
  forbidden,
  jsonAnswer,
  missingParam,
  parseUint32,
  requireParams,
  type SimAnswer,
  type SimRequest,
} from "./sim-answer.js";
import { keyOwnsApp, type SimApp, type SimState } from "./sim-state.js";

export function getPartnerAppList(state: SimState, { params, key }: SimRequest): SimAnswer {
  const owned = key === undefined ? undefined : state.keys.get(key);
  if (owned === undefined) return forbidden();
  const filter = (params.get("type_filter") ?? "").split(",").filter((type) => type !== "");
  const app = [...owned]
    .map((appid) => state.apps.get(appid))
    .filter((found): found is SimApp => found !== undefined)
    .filter((found) => filter.length === 0 || filter.includes(found.appType))
    .map((found) => ({ appid: found.appid, app_type: found.appType, app_name: found.name }));
  return jsonAnswer({ applist: { apps: { app } } });
}

export function appDetails(state: SimState, { params }: SimRequest): SimAnswer {
  const appids = params.get("appids");
  if (appids === null || appids === "") return missingParam("appids");
  // Several ids only work with filters=price_overview; otherwise `null` and 400 (reference 5).
  if (appids.includes(",") && params.get("filters") !== "price_overview") return jsonAnswer(null, 400);
  const body: Record<string, unknown> = {};
  for (const id of appids.split(",")) {
    const app = state.apps.get(parseUint32(id) ?? -1);
    body[id] =
      app === undefined || app.store === "removed" ? { success: false } : { success: true, data: storeData(app) };
  }
  return jsonAnswer(body);
}

// The fields reference 5 names; price_overview only for paid, released apps.
function storeData(app: SimApp): object {
  const paid = app.store === "onSale";
  return {
    type: app.appType,
    name: app.name,
    steam_appid: app.appid,
    is_free: app.store === "free",
    ...(paid
      ? {
          price_overview: {
            currency: "USD",
            initial: 999,
            final: 999,
            discount_percent: 0,
            initial_formatted: "$9.99",
            final_formatted: "$9.99",
          },
        }
      : {}),
    release_date: { coming_soon: app.store === "comingSoon", date: app.store === "comingSoon" ? "" : "Oct 10, 2007" },
    packages: paid ? [app.appid * 10] : [],
    platforms: { windows: true, mac: false, linux: false },
  };
}

/** GetNewsForApp is public (no key); the Authed variant needs a key owning the app (reference 6). */
export function getNewsForApp(state: SimState, req: SimRequest, authed: boolean): SimAnswer {
  const { params } = req;
  if (authed && (req.key === undefined || !state.keys.has(req.key))) return forbidden();
  const missing = requireParams(params, ["appid"]);
  if (missing !== undefined) return missing;
  const appid = parseUint32(params.get("appid"));
  if (appid === undefined) return missingParam("appid");
  if (authed && !keyOwnsApp(state, req.key, appid)) return forbidden();
  const feeds = (params.get("feeds") ?? "").split(",").filter((feed) => feed !== "");
  const enddate = parseUint32(params.get("enddate"));
  const maxlength = parseUint32(params.get("maxlength")) ?? 0;
  const matching = (state.apps.get(appid)?.news ?? [])
    .filter((item) => feeds.length === 0 || feeds.includes(item.feedname))
    .filter((item) => enddate === undefined || item.date < enddate)
    .sort((a, b) => b.date - a.date);
  const newsitems = matching
    .slice(0, parseUint32(params.get("count")) ?? 20)
    .map((item) => (maxlength > 0 ? { ...item, contents: item.contents.slice(0, maxlength) } : item));
  // `count` is the total matching, not the page size (reference 6).
  return jsonAnswer({ appnews: { appid, newsitems, count: matching.length } });
}
