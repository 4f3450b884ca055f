import { useMutation, useQuery } from "@connectrpc/connect-query";
import { type Campaign, CampaignService, type FundingVisibility } from "@encore-campaigns/client";
import { useId, useState } from "react";
import { Link, useParams } from "wouter";
import { useCaller } from "../caller";
import { FundingChart } from "../components/funding-chart";
import { Offers } from "../components/offers";
import { PublicView } from "../components/public-view";
import { PurchaseTable } from "../components/purchase-table";
import { Done, ErrorNote, Loading, Usd } from "../components/status";
import { WebFunding } from "../components/web-funding";
import { formatTime } from "../time";
import { VISIBILITIES } from "../visibility";
import { CAMPAIGN_STATE } from "../words";
import { Purchasable } from "./campaigns";

// One campaign: its funding over time, what players see, funding from the web, its offers and
// its latest purchases.

export function CampaignPage() {
  const { account, can } = useCaller();
  const params = useParams<{ campaign: string }>();
  const name = `${account}/campaigns/${params.campaign}`;
  const campaign = useQuery(CampaignService.method.getCampaign, { name });
  if (campaign.isPending) return <Loading what="the campaign" />;
  if (!campaign.data) {
    return (
      <>
        <h1>Campaign</h1>
        <ErrorNote error={campaign.error} />
        <Link href="/">Back to campaigns</Link>
      </>
    );
  }
  const c = campaign.data;
  const state = CAMPAIGN_STATE[c.state];
  return (
    <>
      <p className="crumbs">
        <Link href="/">Campaigns</Link>
      </p>
      <h1>{c.displayName || "Untitled campaign"}</h1>
      <p>
        <span className="badge">{state.label}</span> {state.meaning}
      </p>
      {c.verification?.explanation && (
        <p className="explanation">
          <strong>Verification:</strong> {c.verification.explanation} ({formatTime(c.verification.verifyTime)})
        </p>
      )}
      <Purchasable campaignKey={c.campaignKey} />
      {can("encore.transfers.start") && (
        <p>
          <Link href={`/campaigns/${params.campaign}/transfer`}>Transfer the game's servers into the campaign</Link>
        </p>
      )}
      {can("encore.funding.get") && <Funding campaign={name} />}
      <section aria-labelledby="players-h">
        <h2 id="players-h">What players see</h2>
        {can("encore.encores.update") && <VisibilityEditor campaign={c} />}
        <PublicView campaignKey={c.campaignKey} />
      </section>
      <WebFunding campaign={c} canEdit={can("encore.encores.update")} />
      <section aria-labelledby="offers-h">
        <h2 id="offers-h">Offers</h2>
        <Offers campaign={name} />
      </section>
      <section aria-labelledby="recent-h">
        <h2 id="recent-h">Recent purchases</h2>
        <PurchaseTable campaign={name} pageSize={5} />
        <p>
          <Link href={`/purchases?campaign=${params.campaign}`}>All purchases of this campaign</Link>
        </p>
      </section>
    </>
  );
}

function Funding({ campaign }: { campaign: string }) {
  const funding = useQuery(
    CampaignService.method.getFunding,
    { name: `${campaign}/funding` },
    { refetchInterval: 5000 },
  );
  const history = useQuery(
    CampaignService.method.getFundingHistory,
    { name: `${campaign}/funding`, days: 30 },
    { refetchInterval: 5000 },
  );
  const f = funding.data;
  return (
    <section aria-labelledby="funding-h">
      <h2 id="funding-h">Funding</h2>
      {funding.isPending && <Loading what="funding" />}
      <ErrorNote error={funding.error} />
      {f && (
        <dl className="figures" aria-label="Funding now">
          <div>
            <dt>Balance</dt>
            <dd>
              <Usd value={f.balance} />
            </dd>
          </div>
          <div>
            <dt>Spend, last 7 days</dt>
            <dd>
              <Usd value={f.sevenDaySpend} />
            </dd>
          </div>
          <div>
            <dt>Runway</dt>
            <dd>{f.runwayDays === undefined ? "Not projected (nothing spent)" : `${f.runwayDays} days`}</dd>
          </div>
          <div>
            <dt>Purchases, last 7 days</dt>
            <dd>
              {f.purchaseCount.toString()} (<Usd value={f.purchasedCredit} /> credit)
            </dd>
          </div>
          {f.reversalCount > 0n && (
            <div>
              <dt>Refunds and chargebacks, last 7 days</dt>
              <dd>
                {f.reversalCount.toString()} (<Usd value={f.reversedCredit} /> taken back)
              </dd>
            </div>
          )}
        </dl>
      )}
      {history.isPending && <Loading what="the funding chart" />}
      <ErrorNote error={history.error} />
      {history.data && <FundingChart days={history.data.days} />}
    </section>
  );
}

function VisibilityEditor({ campaign }: { campaign: Campaign }) {
  const id = useId();
  const [choice, setChoice] = useState<FundingVisibility>(campaign.fundingVisibility);
  const update = useMutation(CampaignService.method.updateCampaign);
  return (
    <form
      className="inline"
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({
          campaign: { name: campaign.name, fundingVisibility: choice, etag: campaign.etag },
          updateMask: { paths: ["funding_visibility"] },
        });
      }}
    >
      <label htmlFor={id}>Players see</label>
      <select id={id} value={choice} onChange={(e) => setChoice(Number(e.target.value) as FundingVisibility)}>
        {VISIBILITIES.map((v) => (
          <option key={v.value} value={v.value}>
            {v.label}: {v.description}
          </option>
        ))}
      </select>
      <button type="submit" disabled={update.isPending || choice === campaign.fundingVisibility}>
        Save visibility
      </button>
      <ErrorNote error={update.error} />
      {update.isSuccess && <Done>Saved.</Done>}
    </form>
  );
}
