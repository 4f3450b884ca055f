import { useQuery } from "@connectrpc/connect-query";
import { CampaignService, FundingVisibility } from "@encore-campaigns/client";
import { formatUsd } from "../money";
import { visibilityLabel } from "../visibility";
import { unavailableWords } from "../words";
import { ErrorNote, Loading } from "./status";

// The campaign as a player sees it in the game: the very answers of the public calls
// (GetPublicFunding, ListPublicOffers), shaped by the visibility the studio chose (spec 2.3).
export function PublicView({ campaignKey }: { campaignKey: string }) {
  const funding = useQuery(CampaignService.method.getPublicFunding, { campaignKey }, { refetchInterval: 5000 });
  const offers = useQuery(CampaignService.method.listPublicOffers, { campaignKey }, { refetchInterval: 5000 });
  if (funding.isPending || offers.isPending) return <Loading what="the player's view" />;
  if (!funding.data || !offers.data) return <ErrorNote error={funding.error ?? offers.error} />;
  const f = funding.data;
  return (
    <div className="player-view">
      <p className="hint">
        Shown to players under “{visibilityLabel(f.visibility)}”. Offers' credit is never shown to players.
      </p>
      <dl className="figures">
        <div>
          <dt>Servers</dt>
          <dd>{f.funded ? "Funded" : "Not funded"}</dd>
        </div>
        {f.visibility === FundingVisibility.EXACT_BALANCE && (
          <div>
            <dt>Balance</dt>
            <dd>{formatUsd(f.balance)}</dd>
          </div>
        )}
        {f.visibility !== FundingVisibility.FUNDED_ONLY && (
          <div>
            <dt>Runway</dt>
            <dd>{f.runwayDays === undefined ? "Not projected yet" : `${f.runwayDays} days`}</dd>
          </div>
        )}
      </dl>
      {offers.data.offers.length === 0 ? (
        <p className="empty">No offer on sale.</p>
      ) : (
        <ul className="store">
          {offers.data.offers.map((offer) => (
            <li key={offer.offerId}>
              <span>{offer.displayName}</span> <span className="money">{formatUsd(offer.price)}</span>
              {offer.description && <span className="hint"> {offer.description}</span>}
            </li>
          ))}
        </ul>
      )}
      <p className={f.purchasable ? "ok" : "warn"}>
        {f.purchasable ? "Players can buy now." : `Players cannot buy: ${unavailableWords(f.unavailableReason)}`}
      </p>
    </div>
  );
}
