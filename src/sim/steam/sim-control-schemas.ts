// Request bodies of the simulator's control API (docs/steam-simulator.md). The TypeScript helper
// takes the same shapes (z.input), so the two cannot drift apart.

import { z } from "zod";
import { ORDER_STATUSES } from "../../domain/purchase-state.js";

const uint64 = z.string().regex(/^\d{1,20}$/);
const appid = z.number().int().min(0).max(0xffff_ffff);

export const CONTROL_PREFIX = "/_sim";

/** Every Steam call the simulator answers, by the name faults and the call log use. */
export const STEAM_CALLS = [
  "AuthenticateUserTicket",
  "GetUserInfo",
  "InitTxn",
  "QueryTxn",
  "FinalizeTxn",
  "GetReport",
  "GetPartnerAppListForWebAPIKey",
  "appdetails",
  "GetNewsForApp",
  "GetNewsForAppAuthed",
  "check_authentication",
] as const;

const FAULT_KINDS = ["latency", "http5xx", "http429", "reset", "timeout", "rejectKey", "resetAfterCommit"] as const;

export const publisherKeyBody = z.object({
  key: z.string().min(1),
  apps: z.array(z.union([appid, z.object({ appid, name: z.string().optional(), appType: z.string().optional() })])),
});

export const revokedKeyBody = z.object({ key: z.string().min(1) });

export const storeStatusBody = z.object({ status: z.enum(["onSale", "free", "comingSoon", "removed"]) });

export const announcementBody = z.object({
  title: z.string(),
  contents: z.string().default(""),
  feedname: z.string().default("steam_community_announcements"),
  feedlabel: z.string().optional(),
  author: z.string().default(""),
  /** Unix seconds; default now. */
  date: z.number().int().optional(),
  url: z.string().optional(),
  tags: z.array(z.string()).optional(),
});

export const playerBody = z.object({
  steamid: uint64,
  currency: z.string().length(3).default("USD"),
  country: z.string().length(2).default("US"),
  state: z.string().default(""),
  status: z.enum(["Active", "Trusted", "Locked"]).default("Active"),
  /** Approves every order in the overlay as soon as it opens (load tests: no control call per order). */
  autoApprove: z.boolean().default(false),
});

export const ticketBody = z.object({
  steamid: uint64,
  appid,
  identity: z.string(),
  ownerSteamid: uint64.optional(),
  vacBanned: z.boolean().default(false),
  publisherBanned: z.boolean().default(false),
});

/**
 * An order's later status (reference 7 hooks). `items` sets per-item `itemstatus` (required for
 * PartialRefund; items not named stay `Succeeded`); otherwise every item takes the order's status.
 * `time` pins the order's last update (RFC 3339 UTC, whole seconds), default now.
 */
export const orderStatusBody = z
  .object({
    status: z.enum(ORDER_STATUSES),
    items: z.array(z.object({ itemid: appid, status: z.enum(ORDER_STATUSES) })).optional(),
    time: z
      .string()
      .regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)
      .optional(),
  })
  .refine((body) => body.status !== "PartialRefund" || (body.items?.length ?? 0) > 0, {
    message: "PartialRefund needs per-item statuses in items",
    path: ["items"],
  });

/** A signed sign-in assertion for a player, as the sign-in page would send the browser back with. */
export const assertionBody = z.object({
  steamid: uint64,
  /** Absolute http(s) URL; the fields are appended to its query. */
  returnTo: z.url({ protocol: /^https?$/ }),
});

export const faultBody = z.object({
  call: z.enum([...STEAM_CALLS, "*"]),
  kind: z.enum(FAULT_KINDS),
  /** How many matching calls the fault hits; default 1. */
  times: z.number().int().min(1).default(1),
  /** Delay for `latency`; default 1000. */
  ms: z.number().int().min(0).default(1000),
  /** Status for `http5xx`; default 500. */
  status: z.number().int().min(500).max(599).default(500),
});
