import type { ServiceDeps } from "../../../core/deps.js";
import { PLATFORM_UNAVAILABLE } from "../../../errors/messages.js";
import { unavailable } from "../../../errors/status.js";
import { markKeyRejected } from "../../../usecases/key-rejected.js";

export interface TicketCheck {
  campaignKey: string;
  appId: bigint;
  linkId: string;
  publisherKey: string;
  ticket: string;
  /** Told whether the platform vouched for the player or refused the ticket. */
  onVerdict?: (verdict: "vouched" | "refused") => void;
}

/**
 * The player the platform vouches for (spec 5.1), checked with the studio's own key for the
 * campaign's app: a ticket minted for another app is refused by the platform (reference 2,
 * error 102) and so is PLAYER_NOT_AUTHENTICATED too. A rejected key marks the link
 * STATE_CREDENTIAL_INVALID and answers PUBLISHER_UNAVAILABLE, since the player was never judged.
 */
export async function authenticatePlayer(deps: ServiceDeps, check: TicketCheck): Promise<string> {
  const result = await deps.steam.authenticateTicket({
    publisherKey: check.publisherKey,
    appid: Number(check.appId),
    ticket: check.ticket,
  });
  if (result.kind === "ok") {
    check.onVerdict?.("vouched");
    return result.value.steamid;
  }
  if (result.kind === "unavailable") {
    throw unavailable(PLATFORM_UNAVAILABLE, { cause: result.cause });
  }
  if (result.keyRejected) {
    await markKeyRejected(deps, check.linkId, check.publisherKey);
    throw deps.refuse("PUBLISHER_UNAVAILABLE", {
      subject: check.campaignKey,
      message: "The studio's platform key was rejected.",
    });
  }
  check.onVerdict?.("refused");
  throw deps.refuse("PLAYER_NOT_AUTHENTICATED", {
    subject: check.campaignKey,
    message: `The platform did not vouch for the player (${result.code}).`,
  });
}
