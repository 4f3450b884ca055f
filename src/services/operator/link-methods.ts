import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type LinkReversals,
  LinkReversalsSchema,
  type OperatorService,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { isReversalRateFlagged, reversalRateBps } from "../../domain/reversal-rate.js";
import { notFound } from "../../errors/status.js";
import { type LinkReversalRow, listLinkReversals } from "../../store/link-reversals.js";
import { setOutstandingLimit } from "../../store/links.js";
import { toDistributorLink } from "../campaign/links/link-mapper.js";
import { listById } from "../list-page.js";
import { readName } from "../management-access.js";
import { toMoney } from "../money-mapper.js";
import { requireOperator } from "../principal.js";
import { readLimit } from "./operator-money.js";

const DAY_MS = 86_400_000;

type LinkMethods = Pick<ServiceImpl<typeof OperatorService>, "setOutstandingLimit" | "listLinkReversals">;

/** Distributor links as the operator bounds and watches them (spec 8). */
export function createLinkMethods(deps: ServiceDeps): LinkMethods {
  const { windowDays, ratePercent } = deps.config.reversalFlag;
  return {
    /**
     * Sets a link's outstanding limit (spec 8). Lowering it below what is already outstanding
     * takes nothing back; it only refuses further begins with PUBLISHER_LIMIT_REACHED.
     */
    async setOutstandingLimit(request, ctx) {
      requireOperator(ctx);
      const { accountId, linkId } = readName(resources.link, request.name, "name");
      const limitNanos = readLimit(request.outstandingLimit, "outstandingLimit");
      const row = await setOutstandingLimit(deps.db, { accountId, linkId, limitNanos, now: deps.now() });
      if (!row) throw notFound(`Distributor link "${request.name}" not found.`);
      return toDistributorLink(row);
    },

    /**
     * Every distributor link with its reversals: all-time issued and reversed credit,
     * and over the last REVERSAL_RATE_WINDOW_DAYS the credit issued, reversed and their rate,
     * flagged at REVERSAL_FLAG_RATE_PERCENT. With `flagged_only` a page may hold fewer links than
     * asked (AIP-158) while more follow.
     */
    async listLinkReversals(request, ctx) {
      requireOperator(ctx);
      const since = new Date(deps.now().getTime() - windowDays * DAY_MS);
      const page = await listById(deps, request, {
        scope: "linkReversals",
        load: (next) => listLinkReversals(deps.db, { ...next, since }),
      });
      const links = page.items.map((row) => toLinkReversals(row, ratePercent));
      return {
        linkReversals: request.flaggedOnly ? links.filter((link) => link.flagged) : links,
        nextPageToken: page.nextPageToken,
        windowDays,
        flagRatePercent: ratePercent,
      };
    },
  };
}

function toLinkReversals(row: LinkReversalRow, ratePercent: number): LinkReversals {
  const rate = reversalRateBps(row.windowIssuedNanos, row.windowReversedNanos);
  return create(LinkReversalsSchema, {
    link: resources.link.format({ accountId: row.accountId, linkId: row.id }),
    displayName: row.displayName,
    sandbox: row.sandbox,
    issued: toMoney(row.issuedNanos),
    reversed: toMoney(row.reversedNanos),
    windowIssued: toMoney(row.windowIssuedNanos),
    windowReversed: toMoney(row.windowReversedNanos),
    windowReversalCount: row.windowReversalCount,
    windowReversalRateBps: rate,
    flagged: isReversalRateFlagged(rate, ratePercent),
    ...(row.reconcileTime === null ? {} : { reconcileTime: timestampFromDate(row.reconcileTime) }),
  });
}
