import { useMutation, useQuery } from "@connectrpc/connect-query";
import { CampaignService, type Offer } from "@encore-campaigns/client";
import { type FormEvent, useId, useState } from "react";
import { useCaller } from "../caller";
import { formatUsd, maxCreditNanos, parseDollars, usd } from "../money";
import { useSettings } from "../settings";
import { Done, Empty, ErrorNote, Loading } from "./status";
import { TableScroll } from "./table-scroll";

// A campaign's offers and their editor: the storefront's share and the largest credit allowed
// are shown as the price is typed (the service refuses more: spec 2.6, 8).

export function Offers({ campaign }: { campaign: string }) {
  const { can } = useCaller();
  const offers = useQuery(CampaignService.method.listOffers, { parent: campaign, pageSize: 100 });
  const [editing, setEditing] = useState<string>();
  if (offers.isPending) return <Loading what="offers" />;
  if (!offers.data) return <ErrorNote error={offers.error} />;
  return (
    <>
      {offers.data.offers.length === 0 ? (
        <Empty>No offers yet.</Empty>
      ) : (
        <TableScroll label="Offers">
          <table>
            <thead>
              <tr>
                <th scope="col">Offer</th>
                <th scope="col">Price</th>
                <th scope="col">Credit</th>
                <th scope="col">On sale</th>
                {can("encore.offers.update") && (
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {offers.data.offers.map((offer) => (
                <tr key={offer.name}>
                  <th scope="row">{offer.displayName}</th>
                  <td>{formatUsd(offer.price)}</td>
                  <td>{formatUsd(offer.credit)}</td>
                  <td>{offer.active ? "Yes" : "No"}</td>
                  {can("encore.offers.update") && (
                    <td>
                      <button type="button" className="secondary" onClick={() => setEditing(offer.name)}>
                        Edit<span className="visually-hidden"> {offer.displayName}</span>
                      </button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {editing && can("encore.offers.update") && (
        <OfferEditor
          key={editing}
          campaign={campaign}
          offer={offers.data.offers.find((o) => o.name === editing)}
          onDone={() => setEditing(undefined)}
        />
      )}
      {!editing && can("encore.offers.create") && <OfferEditor campaign={campaign} />}
    </>
  );
}

const dollars = (money: Offer["price"]) => (money ? formatUsd(money).replace(/^\$/, "").replaceAll(",", "") : "");

function OfferEditor({ campaign, offer, onDone }: { campaign: string; offer?: Offer; onDone?: () => void }) {
  const id = useId();
  const share = useSettings().storefrontSharePercent;
  const [displayName, setDisplayName] = useState(offer?.displayName ?? "");
  const [description, setDescription] = useState(offer?.description ?? "");
  const [price, setPrice] = useState(dollars(offer?.price));
  const [credit, setCredit] = useState(dollars(offer?.credit));
  const [active, setActive] = useState(offer?.active ?? true);
  const [saved, setSaved] = useState<string>();
  const create = useMutation(CampaignService.method.createOffer, {
    onSuccess: (made) => {
      setSaved(`Offer “${made.displayName}” created.`);
      setDisplayName("");
      setDescription("");
      setPrice("");
      setCredit("");
    },
  });
  const update = useMutation(CampaignService.method.updateOffer, { onSuccess: () => onDone?.() });
  const priceNanos = parseDollars(price, 2);
  const creditNanos = parseDollars(credit);
  const max = priceNanos === undefined || share === undefined ? undefined : maxCreditNanos(priceNanos, share);
  const tooMuch = max !== undefined && creditNanos !== undefined && creditNanos > max;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(undefined);
    // What was typed goes as typed: the service is the judge (an amount that does not parse
    // is sent as zero and refused in words).
    const fields = {
      displayName,
      description,
      price: usd(priceNanos ?? 0n),
      credit: usd(creditNanos ?? 0n),
      active,
    };
    if (offer) {
      update.mutate({
        offer: { ...fields, name: offer.name, etag: offer.etag },
        updateMask: { paths: ["display_name", "description", "price", "credit", "active"] },
      });
    } else {
      create.mutate({ parent: campaign, offer: fields, requestId: crypto.randomUUID() });
    }
  };
  const error = create.error ?? update.error;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{offer ? `Edit “${offer.displayName}”` : "New offer"}</h3>
      <form className="form" onSubmit={submit}>
        <label htmlFor={`${id}-name`}>Name shown in the overlay and store</label>
        <input
          id={`${id}-name`}
          value={displayName}
          onChange={(e) => setDisplayName(e.target.value)}
          maxLength={128}
          required
        />
        <label htmlFor={`${id}-description`}>Description (optional)</label>
        <input id={`${id}-description`} value={description} onChange={(e) => setDescription(e.target.value)} />
        <label htmlFor={`${id}-price`}>Price (US dollars, whole cents)</label>
        <input
          id={`${id}-price`}
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          aria-describedby={`${id}-share`}
          required
        />
        <p id={`${id}-share`} className="hint" aria-live="polite">
          {share === undefined
            ? "Reading the storefront's share…"
            : priceNanos === undefined
              ? `The storefront keeps ${share}% of the price; the rest can be credit.`
              : `The storefront keeps ${share}%: ${formatUsd(priceNanos - (max ?? 0n))}. Maximum credit: ${formatUsd(max)}.`}
        </p>
        <label htmlFor={`${id}-credit`}>Credit for the servers (US dollars, never shown to players)</label>
        <input
          id={`${id}-credit`}
          inputMode="decimal"
          value={credit}
          onChange={(e) => setCredit(e.target.value)}
          aria-describedby={`${id}-credit-note`}
          aria-invalid={tooMuch || undefined}
          required
        />
        <p id={`${id}-credit-note`} className={tooMuch ? "warn" : "hint"} aria-live="polite">
          {tooMuch ? `That is more than the maximum credit of ${formatUsd(max)}.` : "At most the maximum credit above."}
        </p>
        <label className="choice">
          <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
          <span>On sale</span>
        </label>
        <div className="actions">
          <button type="submit" disabled={create.isPending || update.isPending}>
            {offer ? "Save offer" : "Add offer"}
          </button>
          {offer && (
            <button type="button" className="secondary" onClick={onDone}>
              Cancel
            </button>
          )}
        </div>
      </form>
      <ErrorNote error={error} />
      {saved && <Done>{saved}</Done>}
    </section>
  );
}
