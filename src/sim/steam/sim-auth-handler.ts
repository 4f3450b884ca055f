// ISteamUserAuth/AuthenticateUserTicket as Steam answers it (reference 2): HTTP 200 with
// `response.params.result` on success, `response.error` alone on failure.

import { forbidden, jsonAnswer, parseUint32, requireParams, type SimAnswer, type SimRequest } from "./sim-answer.js";
import { keyOwnsApp, type SimState } from "./sim-state.js";

function authError(errorcode: number, errordesc: string): SimAnswer {
  return jsonAnswer({ response: { error: { errorcode, errordesc } } });
}

export function authenticateUserTicket(state: SimState, { params, key }: SimRequest): SimAnswer {
  if (key === undefined || !state.keys.has(key)) return forbidden();
  const missing = requireParams(params, ["appid", "ticket"]);
  if (missing !== undefined) return missing;
  const appid = parseUint32(params.get("appid"));
  const hex = params.get("ticket") ?? "";
  // Non-hex or odd-length tickets and bad appids are "Invalid parameter" (reference 2 error table).
  if (appid === undefined || !/^([0-9a-fA-F]{2})+$/.test(hex)) return authError(3, "Invalid parameter");
  // On the partner host the key must belong to the ticket's app (reference 1.2).
  if (!keyOwnsApp(state, key, appid)) return forbidden();
  const ticket = state.tickets.get(hex.toLowerCase());
  if (ticket === undefined) return authError(101, "Invalid ticket");
  if (ticket.appid !== appid) return authError(102, "Ticket for other app");
  // A ticket minted with an identity validates only with that same identity (reference 2).
  if ((params.get("identity") ?? "") !== ticket.identity) return authError(101, "Invalid ticket");
  return jsonAnswer({
    response: {
      params: {
        result: "OK",
        steamid: ticket.steamid,
        ownersteamid: ticket.ownerSteamid,
        vacbanned: ticket.vacBanned,
        publisherbanned: ticket.publisherBanned,
      },
    },
  });
}
