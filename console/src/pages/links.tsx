import { useMutation, useQuery } from "@connectrpc/connect-query";
import { CampaignService, type DistributorLink, DistributorLink_State } from "@encore-campaigns/client";
import { type FormEvent, useId, useState } from "react";
import { useCaller } from "../caller";
import { Done, Empty, ErrorNote, Loading, Usd } from "../components/status";
import { formatTime } from "../time";
import { LINK_STATE } from "../words";

// Distributor links: each publisher key by its fingerprint (the key is never shown or
// returned), what the link owes the operator and its limit; link a key, rotate a key.

export function LinksPage() {
  const { account, can } = useCaller();
  const links = useQuery(CampaignService.method.listDistributorLinks, { parent: account, pageSize: 100 });
  return (
    <>
      <h1>Distributor links</h1>
      <p className="hint">
        Outstanding: credit players bought through the link that you have not settled with the operator yet. Reserved:
        credit of purchases still in progress. Players cannot buy once outstanding plus reserved would pass the limit
        the operator set.
      </p>
      {links.isPending && <Loading what="distributor links" />}
      <ErrorNote error={links.error} />
      {links.data && links.data.distributorLinks.length === 0 && <Empty>No distributor link yet.</Empty>}
      <ul className="cards">
        {links.data?.distributorLinks.map((link) => (
          <li key={link.name}>
            <LinkCard link={link} />
          </li>
        ))}
      </ul>
      {can("encore.links.create") && <CreateLink />}
    </>
  );
}

function LinkCard({ link }: { link: DistributorLink }) {
  const { can } = useCaller();
  const id = useId();
  return (
    <article className="card" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{link.displayName || "Steam link"}</h2>
      <p>
        <span className={link.state === DistributorLink_State.ACTIVE ? "badge" : "badge bad"}>
          {LINK_STATE[link.state]}
        </span>
        {link.steam?.sandbox && <span className="badge">Sandbox: nothing is charged</span>}
      </p>
      <dl className="figures">
        <div>
          <dt>Key fingerprint</dt>
          <dd>
            <code>{link.fingerprint}</code>
          </dd>
        </div>
        <div>
          <dt>Outstanding</dt>
          <dd>
            <Usd value={link.outstanding} />
          </dd>
        </div>
        <div>
          <dt>Reserved</dt>
          <dd>
            <Usd value={link.reserved} />
          </dd>
        </div>
        <div>
          <dt>Limit</dt>
          <dd>
            <Usd value={link.outstandingLimit} />
          </dd>
        </div>
      </dl>
      <p className="meta">Linked {formatTime(link.createTime)}</p>
      {can("encore.links.update") && <RotateKey link={link} />}
    </article>
  );
}

function RotateKey({ link }: { link: DistributorLink }) {
  const id = useId();
  const [key, setKey] = useState("");
  const rotate = useMutation(CampaignService.method.updateDistributorLink, { onSuccess: () => setKey("") });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate({
      distributorLink: { name: link.name, etag: link.etag, steam: { publisherKey: key.trim() } },
      updateMask: { paths: ["steam.publisher_key"] },
    });
  };
  return (
    <form className="inline" onSubmit={submit}>
      <label htmlFor={id}>New publisher key</label>
      <input id={id} type="password" autoComplete="off" value={key} onChange={(e) => setKey(e.target.value)} required />
      <button type="submit" disabled={rotate.isPending || !key.trim()}>
        Rotate key
      </button>
      <ErrorNote error={rotate.error} />
      {rotate.isSuccess && <Done>Key rotated: Steam accepted it for every game a campaign sells.</Done>}
    </form>
  );
}

function CreateLink() {
  const { account } = useCaller();
  const id = useId();
  const [displayName, setDisplayName] = useState("");
  const [key, setKey] = useState("");
  const [sandbox, setSandbox] = useState(false);
  const create = useMutation(CampaignService.method.createDistributorLink, {
    onSuccess: () => {
      setKey("");
      setDisplayName("");
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({
      parent: account,
      distributorLink: { displayName, steam: { publisherKey: key.trim(), sandbox } },
      requestId: crypto.randomUUID(),
    });
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Link a Steam publisher key</h2>
      <form className="form" onSubmit={submit}>
        <label htmlFor={`${id}-name`}>Name</label>
        <input id={`${id}-name`} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
        <label htmlFor={`${id}-key`}>Publisher Web API key</label>
        <input
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          value={key}
          onChange={(e) => setKey(e.target.value)}
          required
        />
        <label className="choice">
          <input type="checkbox" checked={sandbox} onChange={(e) => setSandbox(e.target.checked)} />
          <span>Sandbox (Steam's test purchases: nothing charged, nothing credited)</span>
        </label>
        <button type="submit" disabled={create.isPending}>
          Link key
        </button>
      </form>
      <ErrorNote error={create.error} />
      {create.data && <Done>Linked: Steam accepted the key ({create.data.fingerprint}).</Done>}
    </section>
  );
}
