package encore_test

// These tests call a live service: test/clients/go-client.test.ts starts one (with a seeded
// campaign and API key) and runs `go test` with its address in ENCORE_ADDR. Without it they skip.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/encore-campaigns/encore/clients/go/encore"
	campaignv1 "github.com/encore-campaigns/encore/clients/go/encore/campaign/v1"
	"google.golang.org/genproto/googleapis/longrunning"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

type live struct {
	addr, apiKey, account, campaignKey string
}

func liveService(t *testing.T) live {
	t.Helper()
	service := live{
		addr:        os.Getenv("ENCORE_ADDR"),
		apiKey:      os.Getenv("ENCORE_API_KEY"),
		account:     os.Getenv("ENCORE_ACCOUNT"),
		campaignKey: os.Getenv("ENCORE_CAMPAIGN_KEY"),
	}
	if service.addr == "" {
		t.Skip("ENCORE_ADDR is not set: no live service to call")
	}
	return service
}

func dial(t *testing.T, addr, apiKey string) encore.Clients {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := encore.Dial(ctx, addr, encore.Options{APIKey: apiKey, Cleartext: true})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	return encore.NewClients(conn)
}

func callContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestPublicFundingNeedsNoKey(t *testing.T) {
	service := liveService(t)
	clients := dial(t, service.addr, "")
	funding, err := clients.Campaigns.GetPublicFunding(callContext(t), &campaignv1.GetPublicFundingRequest{CampaignKey: service.campaignKey})
	if err != nil {
		t.Fatalf("GetPublicFunding: %v", err)
	}
	if !funding.GetFunded() || funding.GetBalance().GetCurrencyCode() != "USD" {
		t.Fatalf("funding = %v, want the seeded funded USD balance", funding)
	}
}

func TestManagementCallsSendTheKey(t *testing.T) {
	service := liveService(t)
	request := &campaignv1.ListCampaignsRequest{Parent: service.account}

	_, err := dial(t, service.addr, "").Campaigns.ListCampaigns(callContext(t), request)
	if status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without a key: %v, want Unauthenticated", err)
	}

	list, err := dial(t, service.addr, service.apiKey).Campaigns.ListCampaigns(callContext(t), request)
	if err != nil {
		t.Fatalf("ListCampaigns: %v", err)
	}
	if len(list.GetCampaigns()) != 1 || list.GetCampaigns()[0].GetState() != campaignv1.Campaign_VERIFIED {
		t.Fatalf("campaigns = %v, want the one seeded verified campaign", list.GetCampaigns())
	}
}

func TestOperationsClientReachesTheService(t *testing.T) {
	service := liveService(t)
	clients := dial(t, service.addr, service.apiKey)
	operations, err := clients.Operations.ListOperations(callContext(t), &longrunning.ListOperationsRequest{Name: "operations"})
	if err != nil {
		t.Fatalf("ListOperations: %v", err)
	}
	if len(operations.GetOperations()) != 0 {
		t.Fatalf("operations = %v, want none: nothing was transferred", operations.GetOperations())
	}
}

func TestReasonOfARefusal(t *testing.T) {
	service := liveService(t)
	clients := dial(t, service.addr, service.apiKey)
	list, err := clients.Campaigns.ListCampaigns(callContext(t), &campaignv1.ListCampaignsRequest{Parent: service.account})
	if err != nil || len(list.GetCampaigns()) == 0 {
		t.Fatalf("ListCampaigns: %v %v", list, err)
	}
	_, err = clients.Campaigns.UpdateCampaign(callContext(t), &campaignv1.UpdateCampaignRequest{
		Campaign:   &campaignv1.Campaign{Name: list.GetCampaigns()[0].GetName(), DisplayName: "Renamed", Etag: "stale"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}},
	})
	if status.Code(err) != codes.Aborted || encore.Reason(err) != "ETAG_MISMATCH" {
		t.Fatalf("stale update: %v (reason %q), want Aborted with ETAG_MISMATCH", err, encore.Reason(err))
	}
	if reason := encore.Reason(fmt.Errorf("renaming: %w", err)); reason != "ETAG_MISMATCH" {
		t.Fatalf("Reason of the wrapped refusal = %q", reason)
	}

	// An unknown campaign key is a bare NOT_FOUND: a status without ErrorInfo has no reason.
	_, err = clients.Campaigns.GetPublicFunding(callContext(t), &campaignv1.GetPublicFundingRequest{CampaignKey: "ck_unknown"})
	if status.Code(err) != codes.NotFound || encore.Reason(err) != "" {
		t.Fatalf("unknown key: %v (reason %q), want a bare NotFound", err, encore.Reason(err))
	}
}

func TestTLSWithAPIKey(t *testing.T) {
	service := liveService(t)
	addr, caFile := os.Getenv("ENCORE_TLS_ADDR"), os.Getenv("ENCORE_TLS_CA")
	if addr == "" {
		t.Skip("ENCORE_TLS_ADDR is not set: no service over TLS to call")
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		t.Fatalf("no certificate in %s", caFile)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := encore.Dial(ctx, addr, encore.Options{
		APIKey: service.apiKey,
		TLS:    &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
	})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	list, err := encore.NewClients(conn).Campaigns.ListCampaigns(callContext(t), &campaignv1.ListCampaignsRequest{Parent: service.account})
	if err != nil || len(list.GetCampaigns()) != 1 {
		t.Fatalf("ListCampaigns over TLS: %v, %v", list, err)
	}
}

func TestReasonOfNoStatus(t *testing.T) {
	if reason := encore.Reason(nil); reason != "" {
		t.Fatalf("Reason(nil) = %q", reason)
	}
	if reason := encore.Reason(errors.New("not a status")); reason != "" {
		t.Fatalf("Reason(plain error) = %q", reason)
	}
}

func TestAPIKeyCredentials(t *testing.T) {
	metadata, err := encore.APIKey("ek_test", true).GetRequestMetadata(context.Background())
	if err != nil || metadata["authorization"] != "Bearer ek_test" {
		t.Fatalf("metadata = %v, %v", metadata, err)
	}
	if !encore.APIKey("ek_test", true).RequireTransportSecurity() || encore.APIKey("ek_test", false).RequireTransportSecurity() {
		t.Fatal("RequireTransportSecurity does not follow requireTLS")
	}
}
