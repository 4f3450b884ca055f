import type { Logger } from "pino";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { RateLimitSettings } from "../../config.js";
import type { TicketVerdict } from "../../core/context-keys.js";
import { rateLimited } from "../../errors/status.js";
import { addressGroup } from "../address-group.js";
import { quietly, takePoint } from "./limit-point.js";

export interface BeginLimitsOptions
  extends Pick<RateLimitSettings, "beginPerCampaign" | "failedTicketsPerAddress" | "failedTicketsPerCampaign"> {
  /** A limiter of `points` per window under `keyPrefix` (in memory, or shared through Redis). */
  limiter(keyPrefix: string, points: number): RateLimiterAbstract;
  logger: Logger;
  /** A begin was refused with 429 (for /metrics). */
  onRefused?: (limit: "begin_per_campaign" | "failed_tickets") => void;
}

/** A begin let through: told once, when it is answered, what the platform said of its ticket. */
export interface BeginAdmission {
  settle(verdict: TicketVerdict): void;
}

export interface BeginLimits {
  /** Counts a begin before any work (spec 8), or throws 429 (code 8). */
  admit(call: { campaignKey: string; address: string }): Promise<BeginAdmission>;
}

/**
 * The limits of purchases:begin (spec 8: per campaign key, and per address, 429 before any work),
 * made to hold against strangers: the campaign key ships in the game, and only the platform can
 * tell a player by the ticket (docs/abuse-limits.md). A begin counts against the campaign's
 * begin limit, its address's (IPv6 /64) and its campaign's failed tickets, and gives back when
 * answered every point its ticket's verdict does not earn; past the campaign's failed tickets
 * only an address with a clean record is still checked, so strangers cannot lock players out.
 */
export function createBeginLimits(options: BeginLimitsOptions): BeginLimits {
  const byCampaign = options.limiter("rl:begin", options.beginPerCampaign);
  const failedByAddress = options.limiter("rl:ticket:address", options.failedTicketsPerAddress);
  const failedByCampaign = options.limiter("rl:ticket:campaign", options.failedTicketsPerCampaign);
  const { logger } = options;

  return {
    async admit({ campaignKey, address }) {
      // All asked at once: one round trip to a shared store.
      const [begin, addressTicket, campaignTicket] = await Promise.all([
        takePoint(byCampaign, campaignKey),
        takePoint(failedByAddress, addressGroup(address)),
        takePoint(failedByCampaign, campaignKey),
      ]);
      const hasRecord = addressTicket.before > 0;
      if (!begin.taken || !addressTicket.taken || (!campaignTicket.taken && hasRecord)) {
        await Promise.all([begin.giveBack(), addressTicket.giveBack(), campaignTicket.giveBack()]);
        options.onRefused?.(begin.taken ? "failed_tickets" : "begin_per_campaign");
        throw rateLimited();
      }
      return {
        // Not awaited: the answer does not wait on the store.
        settle(verdict) {
          if (verdict !== "vouched") quietly(logger, begin.giveBack());
          if (verdict !== "refused") {
            quietly(logger, addressTicket.giveBack());
            quietly(logger, campaignTicket.giveBack());
          } else if (!campaignTicket.taken) {
            // A clean address checked past the campaign's budget: its failure still counts.
            quietly(logger, failedByCampaign.penalty(campaignKey, 1));
          }
        },
      };
    },
  };
}
