// ISteamUserAuth/AuthenticateUserTicket (reference 2). The ticket must have been minted by the game
// with the identity below, or Steam answers 101 "Invalid ticket" (DESIGN 3: identity `encore-campaign`).

import { z } from "zod";
import { decodeAuth } from "./steam-envelope.js";
import type { SteamHttp } from "./steam-http.js";
import type { SteamPlatform } from "./steam-platform.js";
import { steamUrl } from "./steam-url.js";

export const STEAM_TICKET_IDENTITY = "encore-campaign";

const uint64 = z.string().regex(/^\d+$/);

const authParams = z
  .object({
    steamid: uint64,
    ownersteamid: uint64.optional(),
    vacbanned: z.boolean().default(false),
    publisherbanned: z.boolean().default(false),
  })
  .transform((p) => ({
    steamid: p.steamid,
    ownerSteamid: p.ownersteamid ?? p.steamid,
    vacBanned: p.vacbanned,
    publisherBanned: p.publisherbanned,
  }));

export function createAuthCall(options: {
  readonly http: SteamHttp;
  readonly apiUrl: string;
}): Pick<SteamPlatform, "authenticateTicket"> {
  return {
    async authenticateTicket(input) {
      const url = steamUrl(options.apiUrl, "ISteamUserAuth/AuthenticateUserTicket/v1/", {
        appid: String(input.appid),
        ticket: input.ticket,
        identity: STEAM_TICKET_IDENTITY,
      });
      const answer = await options.http.send({
        call: "AuthenticateUserTicket",
        url,
        method: "GET",
        publisherKey: input.publisherKey,
      });
      return answer.kind === "ok" ? decodeAuth(answer.value, authParams) : answer;
    },
  };
}
