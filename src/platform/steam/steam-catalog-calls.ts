// The publisher key's app listing (reference 4), storefront availability (reference 5) and the
// studio's announcements (reference 6): plain payloads without the `response` wrapper.

import { z } from "zod";
import { decodePayload } from "./steam-envelope.js";
import type { SteamHttp } from "./steam-http.js";
import type { PartnerApp, PlatformResult, SteamPlatform, StoreAvailability } from "./steam-platform.js";
import { steamUrl } from "./steam-url.js";

type CatalogCalls = Pick<SteamPlatform, "listPartnerApps" | "getStoreAvailability" | "getNews">;

// Note the nesting applist.apps.app[]; an invalid filter reportedly yields `app: [null]` (reference 4).
const appList = z
  .object({
    applist: z.object({
      apps: z.object({
        app: z
          .array(
            z.object({ appid: z.number().int(), app_type: z.string(), app_name: z.string().default("") }).nullable(),
          )
          .default([]),
      }),
    }),
  })
  .transform((body): PartnerApp[] =>
    body.applist.apps.app
      .filter((app) => app !== null)
      .map((app) => ({ appid: app.appid, name: app.app_name, appType: app.app_type })),
  );

const appDetails = z.object({
  success: z.boolean(),
  data: z
    .object({
      is_free: z.boolean().default(false),
      price_overview: z.unknown().optional(),
      release_date: z.object({ coming_soon: z.boolean() }).loose().optional(),
    })
    .loose()
    .optional(),
});

const appNews = z.object({
  appnews: z.object({
    newsitems: z.array(
      z
        .object({
          gid: z.string().regex(/^\d+$/),
          title: z.string(),
          url: z.string().default(""),
          author: z.string().default(""),
          contents: z.string().default(""),
          feedlabel: z.string().default(""),
          date: z.number().int(),
          feedname: z.string().default(""),
          feed_type: z.number().int().default(0),
          tags: z.array(z.string()).default([]),
        })
        .transform(({ feedname, feedlabel, feed_type, ...item }) => ({
          ...item,
          feedName: feedname,
          feedLabel: feedlabel,
          isAnnouncement: feed_type === 1,
        })),
    ),
  }),
});

export function createCatalogCalls(options: {
  readonly http: SteamHttp;
  readonly apiUrl: string;
  readonly storeUrl: string;
}): CatalogCalls {
  const { http, apiUrl, storeUrl } = options;

  return {
    async listPartnerApps({ publisherKey }) {
      const url = steamUrl(apiUrl, "ISteamApps/GetPartnerAppListForWebAPIKey/v2/");
      const answer = await http.send({ call: "GetPartnerAppListForWebAPIKey", url, method: "GET", publisherKey });
      return answer.kind === "ok" ? decodePayload(answer.value, appList) : answer;
    },

    async getStoreAvailability({ appid }) {
      // One id per request: multi-id lookups are unreliable (reference 5). No key: storefront is public.
      const url = steamUrl(storeUrl, "api/appdetails", { appids: String(appid), cc: "us", l: "english" });
      const answer = await http.send({ call: "appdetails", url, method: "GET" });
      if (answer.kind !== "ok") return answer;
      const details = decodePayload(answer.value, z.record(z.string(), appDetails));
      if (details.kind !== "ok") return details;
      const entry = details.value[String(appid)];
      if (entry === undefined) return { kind: "unavailable", cause: "unexpected response shape at appid" };
      return { kind: "ok", value: availability(entry) } satisfies PlatformResult<StoreAvailability>;
    },

    async getNews({ appid, publisherKey, count, feeds }) {
      // The authed variant lives on the partner host and also serves unreleased apps (reference 6).
      const method = publisherKey === undefined ? "GetNewsForApp" : "GetNewsForAppAuthed";
      const url = steamUrl(apiUrl, `ISteamNews/${method}/v2/`, {
        appid: String(appid),
        count: String(count ?? 20),
        maxlength: "0",
        ...(feeds === undefined || feeds.length === 0 ? {} : { feeds: feeds.join(",") }),
      });
      const answer = await http.send({ call: method, url, method: "GET", ...(publisherKey ? { publisherKey } : {}) });
      if (answer.kind !== "ok") return answer;
      const news = decodePayload(answer.value, appNews);
      return news.kind === "ok" ? { kind: "ok", value: news.value.appnews.newsitems } : news;
    },
  };
}

// Reference 5, suggested rule: sold = success && !coming_soon && (is_free || price_overview).
function availability(entry: z.infer<typeof appDetails>): StoreAvailability {
  if (!entry.success || entry.data === undefined) return { status: "removed" };
  const data = entry.data;
  const sold = data.release_date?.coming_soon !== true && (data.is_free || data.price_overview !== undefined);
  return { status: sold ? "onSale" : "notSold" };
}
