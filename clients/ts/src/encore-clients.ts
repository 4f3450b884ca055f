import { type Client, createClient, type Transport } from "@connectrpc/connect";
import { AccountService } from "./gen/encore/account/v1/account_service_pb.js";
import { AuditService } from "./gen/encore/audit/v1/audit_service_pb.js";
import { BillingService } from "./gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "./gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService } from "./gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "./gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "./gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "./gen/encore/webhook/v1/webhook_service_pb.js";
import { Operations } from "./gen/google/longrunning/operations_pb.js";

export interface EncoreClients {
  campaigns: Client<typeof CampaignService>;
  accounts: Client<typeof AccountService>;
  billing: Client<typeof BillingService>;
  hosting: Client<typeof HostingService>;
  operator: Client<typeof OperatorService>;
  /** google.longrunning.Operations: the transfers StartTransfer begins. */
  operations: Client<typeof Operations>;
  /** Webhook endpoints and their deliveries (docs/webhooks.md). */
  webhooks: Client<typeof WebhookService>;
  /** The account's audit log (owner and admin). */
  audit: Client<typeof AuditService>;
  /** Every account's audit log (the operator token). */
  operatorAudit: Client<typeof OperatorAuditService>;
}

/** A client of every service over one transport. */
export function createEncoreClients(transport: Transport): EncoreClients {
  return {
    campaigns: createClient(CampaignService, transport),
    accounts: createClient(AccountService, transport),
    billing: createClient(BillingService, transport),
    hosting: createClient(HostingService, transport),
    operator: createClient(OperatorService, transport),
    operations: createClient(Operations, transport),
    webhooks: createClient(WebhookService, transport),
    audit: createClient(AuditService, transport),
    operatorAudit: createClient(OperatorAuditService, transport),
  };
}
