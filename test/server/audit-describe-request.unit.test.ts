import { create, type DescMessage, type Message } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  CreateApiKeyRequestSchema,
  CreateMemberRequestSchema,
  DeleteApiKeyRequestSchema,
  MemberSchema,
} from "../../gen/encore/account/v1/account_service_pb.js";
import {
  CampaignService,
  CreateDistributorLinkRequestSchema,
  UpdateCampaignRequestSchema,
} from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import {
  CreateAccountRequestSchema,
  CreateAccountResponseSchema,
  CreateSessionRequestSchema,
} from "../../gen/encore/operator/v1/operator_service_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";
import { isWriteMethod } from "../../src/server/audit/audited-methods.js";
import { changedFields, redactedRequest, resourceOf } from "../../src/server/audit/describe-request.js";

const of = <D extends DescMessage>(desc: D, init: Parameters<typeof create<D>>[1]) => ({
  desc,
  message: create(desc, init) as Message,
});

describe("what an audit event says a request did", () => {
  it("takes the changed fields from the update mask, else from the fields set, never output-only ones", () => {
    const update = of(UpdateCampaignRequestSchema, {
      campaign: { name: "accounts/a/campaigns/c", displayName: "New", fundingVisibility: 2 },
      updateMask: { paths: ["display_name"] },
    });
    expect(changedFields(update.desc, update.message)).toEqual(["display_name"]);
    const link = of(CreateDistributorLinkRequestSchema, {
      parent: "accounts/a",
      distributorLink: { displayName: "Steam", steam: { publisherKey: "PK-SECRET" }, fingerprint: "output only" },
    });
    expect(changedFields(link.desc, link.message)).toEqual(["display_name", "steam.publisher_key"]);
    const key = of(CreateApiKeyRequestSchema, {
      parent: "accounts/a",
      apiKey: { role: 1, keyString: "ek_sent_by_mistake" },
    });
    expect(changedFields(key.desc, key.message)).toEqual(["role"]);
    expect(JSON.stringify(redactedRequest(key.desc, key.message))).not.toContain("ek_sent_by_mistake");
    expect(JSON.stringify(redactedRequest(link.desc, link.message))).not.toContain("PK-SECRET");
  });

  it("names the resource acted on", () => {
    const cases: [string, ReturnType<typeof of>, ReturnType<typeof of> | undefined, string][] = [
      ["a name", of(DeleteApiKeyRequestSchema, { name: "accounts/a/apiKeys/k" }), undefined, "accounts/a/apiKeys/k"],
      [
        "the resource an update carries",
        of(UpdateCampaignRequestSchema, { campaign: { name: "accounts/a/campaigns/c" } }),
        undefined,
        "accounts/a/campaigns/c",
      ],
      [
        "a create's answer",
        of(CreateMemberRequestSchema, { parent: "accounts/a" }),
        of(MemberSchema, { name: "accounts/a/members/m" }),
        "accounts/a/members/m",
      ],
      ["a failed create's parent", of(CreateMemberRequestSchema, { parent: "accounts/a" }), undefined, "accounts/a"],
      [
        "the resource inside an answer",
        of(CreateAccountRequestSchema, { displayName: "S" }),
        of(CreateAccountResponseSchema, { account: { name: "accounts/n" } }),
        "accounts/n",
      ],
      [
        "a reference",
        of(CreateSessionRequestSchema, { member: "accounts/a/members/m" }),
        undefined,
        "accounts/a/members/m",
      ],
    ];
    for (const [why, request, response, resource] of cases) expect(resourceOf(request, response), why).toBe(resource);
  });

  it("tells writes from reads by their HTTP binding", () => {
    const m = CampaignService.method;
    expect([m.createCampaign, m.updateCampaign, m.deleteCampaign, m.startTransfer].map(isWriteMethod)).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect([m.getCampaign, m.listCampaigns, m.planTransfer, m.getFundingHistory].map(isWriteMethod)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(isWriteMethod(Operations.method.waitOperation)).toBe(false);
    expect(isWriteMethod(Operations.method.cancelOperation)).toBe(true);
  });
});
