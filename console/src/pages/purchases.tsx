import { useQuery } from "@connectrpc/connect-query";
import { CampaignService, Purchase_Channel, Purchase_State } from "@encore-campaigns/client";
import { useId, useState } from "react";
import { useSearch } from "wouter";
import { useCaller } from "../caller";
import { PurchaseTable } from "../components/purchase-table";
import { Empty, ErrorNote, Loading } from "../components/status";
import { dayRangeTerms } from "../time";
import { PURCHASE_CHANNEL, PURCHASE_STATE } from "../words";

// Purchases: one campaign's, filtered by state, by where they were bought and by day (UTC),
// newest first, in pages.

const STATES = [
  Purchase_State.CREDITED,
  Purchase_State.AUTHORIZED,
  Purchase_State.INITIATED,
  Purchase_State.CANCELLED,
  Purchase_State.FAILED,
  Purchase_State.ABANDONED,
];
const CHANNELS = [Purchase_Channel.GAME, Purchase_Channel.WEB];

/** ListPurchases' filter (AIP-160): days are whole UTC days, "to" included. */
export function purchaseFilter(options: { state: string; channel: string; from: string; to: string }): string {
  const terms = options.state ? [`state = "${options.state}"`] : [];
  if (options.channel) terms.push(`channel = "${options.channel}"`);
  return [...terms, ...dayRangeTerms(options.from, options.to)].join(" AND ");
}

export function PurchasesPage() {
  const { account } = useCaller();
  const id = useId();
  const search = new URLSearchParams(useSearch());
  const campaigns = useQuery(CampaignService.method.listCampaigns, { parent: account, pageSize: 100 });
  const [chosen, setChosen] = useState(search.get("campaign") ?? "");
  const [state, setState] = useState("");
  const [channel, setChannel] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const list = campaigns.data?.campaigns ?? [];
  const campaign = list.find((c) => c.name.endsWith(`/${chosen}`)) ?? list[0];
  return (
    <>
      <h1>Purchases</h1>
      {campaigns.isPending && <Loading what="campaigns" />}
      <ErrorNote error={campaigns.error} />
      {campaigns.data && list.length === 0 && <Empty>No campaigns, so no purchases yet.</Empty>}
      {campaign && (
        <>
          <form className="filters" onSubmit={(event) => event.preventDefault()} aria-label="Filter purchases">
            <div>
              <label htmlFor={`${id}-campaign`}>Campaign</label>
              <select
                id={`${id}-campaign`}
                value={campaign.name.split("/").pop()}
                onChange={(e) => setChosen(e.target.value)}
              >
                {list.map((c) => (
                  <option key={c.name} value={c.name.split("/").pop()}>
                    {c.displayName || c.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${id}-state`}>State</label>
              <select id={`${id}-state`} value={state} onChange={(e) => setState(e.target.value)}>
                <option value="">Any state</option>
                {STATES.map((s) => (
                  <option key={s} value={`STATE_${Purchase_State[s]}`}>
                    {PURCHASE_STATE[s]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${id}-channel`}>Bought in</label>
              <select id={`${id}-channel`} value={channel} onChange={(e) => setChannel(e.target.value)}>
                <option value="">The game or the web</option>
                {CHANNELS.map((c) => (
                  <option key={c} value={`CHANNEL_${Purchase_Channel[c]}`}>
                    {PURCHASE_CHANNEL[c]}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor={`${id}-from`}>From (UTC day)</label>
              <input id={`${id}-from`} type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
            </div>
            <div>
              <label htmlFor={`${id}-to`}>To (UTC day, included)</label>
              <input id={`${id}-to`} type="date" value={to} onChange={(e) => setTo(e.target.value)} />
            </div>
          </form>
          <PurchaseTable
            key={campaign.name}
            campaign={campaign.name}
            pageSize={20}
            filter={purchaseFilter({ state, channel, from, to })}
            paged
          />
        </>
      )}
    </>
  );
}
