// Reads a campaign's public funding, lists the studio's campaigns with an API key, and shows
// the reason of a refusal. Configured by the environment:
//
//	ENCORE_ADDR          host:port of the service, e.g. 127.0.0.1:8080
//	ENCORE_CLEARTEXT     1 to dial without TLS (a local service)
//	ENCORE_API_KEY       a studio API key (ek_...)
//	ENCORE_ACCOUNT       the key's account, e.g. accounts/0b7c...
//	ENCORE_CAMPAIGN_KEY  a campaign's public key (ck_...)
package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/encore-campaigns/encore/clients/go/encore"
	campaignv1 "github.com/encore-campaigns/encore/clients/go/encore/campaign/v1"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := encore.Dial(ctx, os.Getenv("ENCORE_ADDR"), encore.Options{
		APIKey:    os.Getenv("ENCORE_API_KEY"),
		Cleartext: os.Getenv("ENCORE_CLEARTEXT") == "1",
	})
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	campaigns := campaignv1.NewCampaignServiceClient(conn)

	// What a game shows: public, no key needed (the key is sent anyway and ignored).
	funding, err := campaigns.GetPublicFunding(ctx, &campaignv1.GetPublicFundingRequest{
		CampaignKey: os.Getenv("ENCORE_CAMPAIGN_KEY"),
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("funded: %v, purchasable: %v\n", funding.GetFunded(), funding.GetPurchasable())

	// A management call with the API key.
	list, err := campaigns.ListCampaigns(ctx, &campaignv1.ListCampaignsRequest{Parent: os.Getenv("ENCORE_ACCOUNT")})
	if err != nil {
		log.Fatal(err)
	}
	for _, campaign := range list.GetCampaigns() {
		fmt.Printf("campaign %s: %s (%s)\n", campaign.GetName(), campaign.GetDisplayName(), campaign.GetState())
	}

	// A refusal: an update naming a stale etag is ABORTED with reason ETAG_MISMATCH.
	if len(list.GetCampaigns()) > 0 {
		stale := list.GetCampaigns()[0]
		_, err = campaigns.UpdateCampaign(ctx, &campaignv1.UpdateCampaignRequest{
			Campaign:   &campaignv1.Campaign{Name: stale.GetName(), DisplayName: "Renamed", Etag: "stale"},
			UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"display_name"}},
		})
		fmt.Printf("stale update refused: %s\n", encore.Reason(err))
	}
}
