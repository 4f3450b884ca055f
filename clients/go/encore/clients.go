package encore

import (
	accountv1 "github.com/encore-campaigns/encore/clients/go/encore/account/v1"
	auditv1 "github.com/encore-campaigns/encore/clients/go/encore/audit/v1"
	billingv1 "github.com/encore-campaigns/encore/clients/go/encore/billing/v1"
	campaignv1 "github.com/encore-campaigns/encore/clients/go/encore/campaign/v1"
	hostingv1 "github.com/encore-campaigns/encore/clients/go/encore/hosting/v1"
	operatorv1 "github.com/encore-campaigns/encore/clients/go/encore/operator/v1"
	webhookv1 "github.com/encore-campaigns/encore/clients/go/encore/webhook/v1"
	"google.golang.org/genproto/googleapis/longrunning"
	"google.golang.org/grpc"
)

// Clients holds a client of every service on one connection.
type Clients struct {
	Campaigns  campaignv1.CampaignServiceClient
	Accounts   accountv1.AccountServiceClient
	Billing    billingv1.BillingServiceClient
	Hosting    hostingv1.HostingServiceClient
	Operator   operatorv1.OperatorServiceClient
	Operations longrunning.OperationsClient
	// Webhooks manages the account's webhook endpoints and reads their deliveries (docs/webhooks.md).
	Webhooks webhookv1.WebhookServiceClient
	// Audit reads the account's audit log (owner and admin).
	Audit auditv1.AuditServiceClient
	// OperatorAudit reads every account's audit log (the operator token).
	OperatorAudit operatorv1.OperatorAuditServiceClient
}

// NewClients makes a client of every service on conn.
func NewClients(conn grpc.ClientConnInterface) Clients {
	return Clients{
		Campaigns:     campaignv1.NewCampaignServiceClient(conn),
		Accounts:      accountv1.NewAccountServiceClient(conn),
		Billing:       billingv1.NewBillingServiceClient(conn),
		Hosting:       hostingv1.NewHostingServiceClient(conn),
		Operator:      operatorv1.NewOperatorServiceClient(conn),
		Operations:    longrunning.NewOperationsClient(conn),
		Webhooks:      webhookv1.NewWebhookServiceClient(conn),
		Audit:         auditv1.NewAuditServiceClient(conn),
		OperatorAudit: operatorv1.NewOperatorAuditServiceClient(conn),
	}
}
