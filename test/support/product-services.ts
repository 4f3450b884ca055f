import { AccountService } from "../../gen/encore/account/v1/account_service_pb.js";
import { AuditService } from "../../gen/encore/audit/v1/audit_service_pb.js";
import { BillingService } from "../../gen/encore/billing/v1/billing_service_pb.js";
import { CampaignService } from "../../gen/encore/campaign/v1/campaign_service_pb.js";
import { HostingService } from "../../gen/encore/hosting/v1/hosting_service_pb.js";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { WebhookService } from "../../gen/encore/webhook/v1/webhook_service_pb.js";
import { Operations } from "../../gen/google/longrunning/operations_pb.js";

/** Every service of the product's API (not the tools: health, reflection), as tests expect it. */
export const PRODUCT_SERVICES = [
  CampaignService,
  AccountService,
  OperatorService,
  HostingService,
  BillingService,
  Operations,
  WebhookService,
  AuditService,
  OperatorAuditService,
];
