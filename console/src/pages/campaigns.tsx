import { useMutation, useQuery } from "@connectrpc/connect-query";
import {
  type Campaign,
  Campaign_State,
  CampaignService,
  FundingVisibility,
  HostingService,
} from "@encore-campaigns/client";
import { skipToken } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link } from "wouter";
import { useCaller } from "../caller";
import { Done, Empty, ErrorNote, Loading } from "../components/status";
import { formatTime } from "../time";
import { VISIBILITIES } from "../visibility";
import { CAMPAIGN_STATE, unavailableWords } from "../words";

// Campaigns: where each stands, why, and what makes it not purchasable; create and retry.

export const campaignId = (name: string) => name.split("/").pop() ?? "";

export function CampaignsPage() {
  const { account, can } = useCaller();
  const campaigns = useQuery(
    CampaignService.method.listCampaigns,
    { parent: account, pageSize: 100 },
    // Verification runs in the background: look again while any campaign is still verifying.
    {
      refetchInterval: (query) =>
        query.state.data?.campaigns.some((c) => c.state === Campaign_State.STATE_VERIFYING) ? 2000 : false,
    },
  );
  return (
    <>
      <h1>Campaigns</h1>
      {campaigns.isPending && <Loading what="campaigns" />}
      <ErrorNote error={campaigns.error} />
      {campaigns.data && campaigns.data.campaigns.length === 0 && (
        <Empty>No campaigns yet.{can("encore.encores.create") ? " Declare one below." : ""}</Empty>
      )}
      <ul className="cards">
        {campaigns.data?.campaigns.map((campaign) => (
          <li key={campaign.name}>
            <CampaignCard campaign={campaign} />
          </li>
        ))}
      </ul>
      {can("encore.encores.create") && <CreateCampaign />}
    </>
  );
}

function CampaignCard({ campaign }: { campaign: Campaign }) {
  const { can } = useCaller();
  const state = CAMPAIGN_STATE[campaign.state];
  const retry = useMutation(CampaignService.method.retryVerification);
  const retryable = campaign.state === Campaign_State.NEEDS_REVIEW || campaign.state === Campaign_State.DECLINED;
  return (
    <article className="card" aria-labelledby={`c-${campaignId(campaign.name)}`}>
      <h2 id={`c-${campaignId(campaign.name)}`}>
        <Link href={`/campaigns/${campaignId(campaign.name)}`}>{campaign.displayName || "Untitled campaign"}</Link>
      </h2>
      <p>
        <span className={`badge state-${Campaign_State[campaign.state]}`}>{state.label}</span> {state.meaning}
      </p>
      {campaign.verification?.explanation && (
        <p className="explanation">
          <strong>Verification:</strong> {campaign.verification.explanation}
          {campaign.verification.verifyTime && <> ({formatTime(campaign.verification.verifyTime)})</>}
        </p>
      )}
      <Purchasable campaignKey={campaign.campaignKey} />
      <p className="meta">
        Campaign key <code>{campaign.campaignKey}</code>
      </p>
      {retryable && can("encore.encores.update") && (
        <p>
          <button type="button" disabled={retry.isPending} onClick={() => retry.mutate({ name: campaign.name })}>
            Retry verification
          </button>
        </p>
      )}
      <ErrorNote error={retry.error} />
    </article>
  );
}

/** Whether a player can buy right now, as the game would be told (GetPublicFunding), and what to do. */
export function Purchasable({ campaignKey }: { campaignKey: string }) {
  const funding = useQuery(CampaignService.method.getPublicFunding, { campaignKey }, { refetchInterval: 5000 });
  if (!funding.data) return null;
  if (funding.data.purchasable) return <p className="ok">Players can buy now.</p>;
  return (
    <p className="warn">
      <strong>Players cannot buy:</strong> {unavailableWords(funding.data.unavailableReason)}
    </p>
  );
}

function CreateCampaign() {
  const { account, can } = useCaller();
  const id = useId();
  const games = useQuery(HostingService.method.listGames, { parent: account, pageSize: 100 });
  const links = useQuery(CampaignService.method.listDistributorLinks, { parent: account, pageSize: 100 });
  const [displayName, setDisplayName] = useState("");
  const [game, setGame] = useState("");
  const [link, setLink] = useState("");
  const [listing, setListing] = useState("");
  const [visibility, setVisibility] = useState<FundingVisibility>(FundingVisibility.EXACT_BALANCE);
  const listings = useQuery(CampaignService.method.listListings, link ? { parent: link, pageSize: 100 } : skipToken);
  const create = useMutation(CampaignService.method.createCampaign);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      parent: account,
      campaign: { displayName, game, listing, fundingVisibility: visibility },
      requestId: crypto.randomUUID(),
    });
  };
  return (
    <section aria-labelledby={`${id}-h`} className="panel">
      <h2 id={`${id}-h`}>Declare a campaign</h2>
      <form onSubmit={submit} className="form">
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={displayName} onChange={(e) => setDisplayName(e.target.value)} maxLength={128} />
        <label htmlFor={`${id}-game`}>Game</label>
        <select id={`${id}-game`} value={game} onChange={(e) => setGame(e.target.value)} required>
          <option value="">{games.isPending ? "Loading games…" : "Choose a game"}</option>
          {games.data?.games.map((g) => (
            <option key={g.name} value={g.name}>
              {g.displayName}
            </option>
          ))}
        </select>
        {can("hosting.games.create") && <AddGame onAdded={setGame} />}
        <label htmlFor={`${id}-link`}>Distributor link</label>
        <select
          id={`${id}-link`}
          value={link}
          onChange={(e) => {
            setLink(e.target.value);
            setListing("");
          }}
          required
        >
          <option value="">{links.isPending ? "Loading links…" : "Choose the link whose key owns the game"}</option>
          {links.data?.distributorLinks.map((l) => (
            <option key={l.name} value={l.name}>
              {l.displayName || l.fingerprint}
            </option>
          ))}
        </select>
        {links.data?.distributorLinks.length === 0 && (
          <p className="hint">No distributor link yet: link your Steam publisher key on the Distributor links page.</p>
        )}
        <label htmlFor={`${id}-listing`}>Game on Steam</label>
        <select
          id={`${id}-listing`}
          value={listing}
          onChange={(e) => setListing(e.target.value)}
          required
          disabled={!link}
        >
          <option value="">
            {link ? (listings.isPending ? "Asking Steam…" : "Choose the app") : "Choose a link first"}
          </option>
          {listings.data?.listings.map((l) => (
            <option key={l.name} value={l.name}>
              {l.displayName} (app {l.appId.toString()})
            </option>
          ))}
        </select>
        <ErrorNote error={listings.error} />
        <fieldset>
          <legend>What players see of the funding</legend>
          {VISIBILITIES.map((v) => (
            <label key={v.value} className="choice">
              <input
                type="radio"
                name={`${id}-visibility`}
                checked={visibility === v.value}
                onChange={() => setVisibility(v.value)}
              />
              <span>
                {v.label}: <span className="hint">{v.description}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={create.isPending}>
          Declare campaign
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data && (
        <Done>Declared “{create.data.displayName}”: verification has started and takes about a minute.</Done>
      )}
    </section>
  );
}

function AddGame({ onAdded }: { onAdded: (game: string) => void }) {
  const { account } = useCaller();
  const id = useId();
  const [name, setName] = useState("");
  const add = useMutation(HostingService.method.createGame, { onSuccess: (game) => onAdded(game.name) });
  return (
    <div className="inline">
      <label htmlFor={id}>Or add a game</label>
      <input id={id} value={name} onChange={(e) => setName(e.target.value)} maxLength={128} />
      <button
        type="button"
        className="secondary"
        disabled={!name.trim() || add.isPending}
        onClick={() => add.mutate({ parent: account, game: { displayName: name.trim() } })}
      >
        Add game
      </button>
      <ErrorNote error={add.error} />
    </div>
  );
}
