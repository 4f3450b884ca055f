import { randomUUID } from "node:crypto";
import type { Client } from "@connectrpc/connect";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { issueToken } from "../../src/core/credentials.js";
import type { PurchaseFixture } from "./purchase-fixture.js";

/** A Connect client of the management API holding an OWNER key of `accountId`, seeded in the store. */
export async function ownerClient(f: PurchaseFixture, accountId: string): Promise<Client<typeof CampaignService>> {
  const issued = issueToken("ek_");
  await f.db.apiKey.create({
    data: {
      id: randomUUID(),
      accountId,
      displayName: "owner",
      role: "OWNER",
      keyHash: issued.hash,
      keyPrefix: issued.displayPrefix,
    },
  });
  return f.server.client(CampaignService, "connect", issued.token);
}
