// ISteamMicroTxn / ISteamMicroTxnSandbox (reference 3): same methods, versions and shapes on both
// interfaces; `sandbox` only picks the interface name (reference 3.14).

import { z } from "zod";
import { ORDER_STATUSES } from "../../domain/purchase-state.js";
import { decodeMicroTxn } from "./steam-envelope.js";
import type { SteamHttp } from "./steam-http.js";
import { toSteamLanguage } from "./steam-language.js";
import type { AppCall, InitTxnInput, OpenedTxn, OrderRef, PlatformResult, SteamPlatform } from "./steam-platform.js";
import { steamUrl } from "./steam-url.js";

type MicroTxnCalls = Pick<SteamPlatform, "getUserInfo" | "initTxn" | "queryTxn" | "finalizeTxn" | "getReport">;

const uint64 = z.string().regex(/^\d+$/);

const walletParams = z.object({
  state: z.string().default(""),
  country: z.string(),
  currency: z.string(),
  status: z.string(),
});

const txnIdsParams = z.object({ orderid: uint64, transid: uint64 });

const httpUrl = z.url({ protocol: /^https?$/ });

// Reference 3.5: `steamurl` comes only for usersession=web, and a web order is useless without it.
function openedParams(web: boolean): z.ZodType<OpenedTxn> {
  if (!web) return txnIdsParams;
  return txnIdsParams
    .extend({ steamurl: httpUrl })
    .transform(({ steamurl, ...ids }) => ({ ...ids, steamUrl: steamurl }));
}

const orderFields = {
  orderid: uint64,
  transid: uint64,
  steamid: uint64,
  status: z.enum(ORDER_STATUSES),
  currency: z.string(),
  time: z.string(),
  country: z.string().default(""),
  usstate: z.string().default(""),
  // Money stays integer: cents become bigint here, never a float (reference 1.4).
  items: z
    .array(
      z
        .object({
          itemid: z.number().int(),
          qty: z.number().int(),
          amount: z.number().int(),
          vat: z.number().int().default(0),
          itemstatus: z.string().default(""),
        })
        .transform(({ amount, vat, itemstatus, ...item }) => ({
          ...item,
          amountCents: BigInt(amount),
          vatCents: BigInt(vat),
          itemStatus: itemstatus,
        })),
    )
    .default([]),
};

// Reference 3.9: `{count, orders}`; `timecreated` is documented for the report (optional here so
// one order without it does not make the whole page unreadable).
const reportParams = z
  .object({
    orders: z.array(z.object({ ...orderFields, timecreated: z.string().default("") })).default([]),
  })
  .transform((params) => params.orders);

export function createMicroTxnCalls(options: { readonly http: SteamHttp; readonly apiUrl: string }): MicroTxnCalls {
  const { http, apiUrl } = options;

  /** `path` is `<Method>/v<N>` on the interface `on.sandbox` picks. */
  async function call<T>(
    method: "GET" | "POST",
    path: string,
    on: AppCall,
    params: Record<string, string> | URLSearchParams,
    schema: z.ZodType<T>,
  ): Promise<PlatformResult<T>> {
    const iface = on.sandbox ? "ISteamMicroTxnSandbox" : "ISteamMicroTxn";
    const form = params instanceof URLSearchParams ? params : new URLSearchParams(params);
    const url = steamUrl(apiUrl, `${iface}/${path}/`, method === "GET" ? Object.fromEntries(form) : undefined);
    const answer = await http.send({
      call: path.slice(0, path.indexOf("/")),
      url,
      method,
      publisherKey: on.publisherKey,
      ...(method === "POST" ? { form } : {}),
    });
    return answer.kind === "ok" ? decodeMicroTxn(answer.value, schema) : answer;
  }

  const orderParams = (ref: OrderRef) => ({ orderid: ref.orderid, appid: String(ref.appid) });

  return {
    getUserInfo: (input) =>
      call(
        "GET",
        "GetUserInfo/v2",
        input,
        {
          appid: String(input.appid),
          steamid: input.steamid,
          ...(input.ipaddress === undefined ? {} : { ipaddress: input.ipaddress }),
        },
        walletParams,
      ),
    initTxn: (input) =>
      call("POST", "InitTxn/v3", input, initTxnForm(input), openedParams(input.webSession !== undefined)),
    queryTxn: (input) => call("GET", "QueryTxn/v3", input, orderParams(input), z.object(orderFields)),
    finalizeTxn: (input) => call("POST", "FinalizeTxn/v2", input, orderParams(input), txnIdsParams),
    getReport: (input) =>
      call(
        "GET",
        "GetReport/v5",
        input,
        { appid: String(input.appid), type: input.type, time: input.time, maxresults: String(input.maxResults) },
        reportParams,
      ),
  };
}

// Reference 3.5: array parameters are `name[n]` with `itemcount`; `amount[n]` is the line total in
// hundredths of `currency`; usersession=client makes Steam open the in-game overlay, web makes it
// answer a steamurl and requires the player's ipaddress (reference 3.1 "Web flow").
function initTxnForm(input: InitTxnInput): URLSearchParams {
  const form = new URLSearchParams({
    orderid: input.orderid,
    steamid: input.steamid,
    appid: String(input.appid),
    itemcount: String(input.items.length),
    language: toSteamLanguage(input.language),
    currency: input.currency,
    usersession: input.webSession?.userSession ?? "client",
  });
  const ipaddress = input.webSession?.ipAddress ?? input.ipaddress;
  if (ipaddress !== undefined) form.set("ipaddress", ipaddress);
  input.items.forEach((item, n) => {
    form.set(`itemid[${n}]`, String(item.itemid));
    form.set(`qty[${n}]`, String(item.qty));
    form.set(`amount[${n}]`, item.amountCents.toString());
    form.set(`description[${n}]`, item.description);
    if (item.category !== undefined) form.set(`category[${n}]`, item.category);
  });
  return form;
}
