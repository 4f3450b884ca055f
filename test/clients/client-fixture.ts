import { randomUUID } from "node:crypto";
import { issueToken } from "../../src/core/credentials.js";
import type { Harness } from "../management/management-fixture.js";
import { seedCampaign } from "../support/seed.js";

export interface ClientStudio {
  accountName: string;
  campaignName: string;
  campaignKey: string;
  /** An OWNER API key of the account. */
  apiKey: string;
}

/** A studio with one funded, verified, ready campaign and an owner key: what the client examples call. */
export async function seedClientStudio(harness: Harness): Promise<ClientStudio> {
  const seeded = await seedCampaign(harness.db, { balanceNanos: 25_000_000_000n, visibility: "EXACT_BALANCE" });
  const issued = issueToken("ek_");
  await harness.db.apiKey.create({
    data: {
      id: randomUUID(),
      accountId: seeded.accountId,
      displayName: "client",
      role: "OWNER",
      keyHash: issued.hash,
      keyPrefix: issued.displayPrefix,
    },
  });
  return {
    accountName: `accounts/${seeded.accountId}`,
    campaignName: `accounts/${seeded.accountId}/campaigns/${seeded.campaignId}`,
    campaignKey: seeded.campaignKey,
    apiKey: issued.token,
  };
}

/** What both example programs print against a seeded studio. */
export function exampleOutput(studio: ClientStudio): string[] {
  return [
    "funded: true, purchasable: true",
    `campaign ${studio.campaignName}: Keep it alive (VERIFIED)`,
    "stale update refused: ETAG_MISMATCH",
  ];
}
