// The messages, enums and service descriptors of every Encore service, and the helpers that
// need no runtime: transports live in "@encore-campaigns/client/node" and ".../web". Each
// generated file is re-exported whole (`export *`): its names follow the protos, and a name
// list kept by hand here would drift from them.

export { apiKeyInterceptor } from "./api-key-interceptor.js";
export { createEncoreClients, type EncoreClients } from "./encore-clients.js";
export { errorReason } from "./error-reason.js";
export * from "./gen/encore/account/v1/account_service_pb.js";
export * from "./gen/encore/audit/v1/audit_service_pb.js";
export * from "./gen/encore/billing/v1/billing_service_pb.js";
export * from "./gen/encore/campaign/v1/campaign_pb.js";
export * from "./gen/encore/campaign/v1/campaign_service_pb.js";
export * from "./gen/encore/campaign/v1/distributor_link_pb.js";
export * from "./gen/encore/campaign/v1/offer_pb.js";
export * from "./gen/encore/campaign/v1/public_pb.js";
export * from "./gen/encore/campaign/v1/purchase_pb.js";
export * from "./gen/encore/campaign/v1/transfer_pb.js";
export * from "./gen/encore/campaign/v1/visibility_pb.js";
export * from "./gen/encore/hosting/v1/hosting_service_pb.js";
export * from "./gen/encore/operator/v1/operator_audit_service_pb.js";
export * from "./gen/encore/operator/v1/operator_service_pb.js";
export * from "./gen/encore/webhook/v1/webhook_service_pb.js";
export * from "./gen/google/longrunning/operations_pb.js";
export * from "./gen/google/rpc/error_details_pb.js";
export * from "./gen/google/rpc/status_pb.js";
export * from "./gen/google/type/money_pb.js";
export type { EncoreTransportOptions } from "./transport-options.js";
