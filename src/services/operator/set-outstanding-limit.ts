import type { HandlerContext } from "@connectrpc/connect";
import type { DistributorLink } from "../../../gen/encore/campaign/v1/distributor_link_pb.js";
import type { SetOutstandingLimitRequest } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { resources } from "../../domain/resource-names.js";
import { notFound } from "../../errors/status.js";
import { setOutstandingLimit } from "../../store/outstanding-limit.js";
import { toDistributorLink } from "../campaign/links/link-mapper.js";
import { readName } from "../management-access.js";
import { requireOperator } from "../principal.js";
import { readLimit } from "./operator-money.js";

/**
 * Sets a link's outstanding limit (spec 8). Lowering it below what is already outstanding
 * takes nothing back; it only refuses further begins with PUBLISHER_LIMIT_REACHED.
 */
export function createSetOutstandingLimit(deps: ServiceDeps) {
  return async (request: SetOutstandingLimitRequest, ctx: HandlerContext): Promise<DistributorLink> => {
    requireOperator(ctx);
    const { accountId, linkId } = readName(resources.link, request.name, "name");
    const limitNanos = readLimit(request.outstandingLimit, "outstandingLimit");
    const row = await setOutstandingLimit(deps.db, { accountId, linkId, limitNanos, now: deps.now() });
    if (!row) throw notFound(`Distributor link "${request.name}" not found.`);
    return toDistributorLink(row);
  };
}
