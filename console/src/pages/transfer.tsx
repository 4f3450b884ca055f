import { useMutation, useQuery } from "@connectrpc/connect-query";
import {
  type Campaign,
  CampaignService,
  HostingService,
  Transfer_Mode,
  Transfer_State,
  TransferItem_State,
  type TransferPlan,
} from "@encore-campaigns/client";
import { skipToken } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { Link, useParams } from "wouter";
import { useCaller } from "../caller";
import { Done, Empty, ErrorNote, Loading } from "../components/status";
import { TableScroll } from "../components/table-scroll";
import { formatTime } from "../time";
import { ITEM_STATE, TRANSFER_STATE } from "../words";

// Transfer: move the game's servers into the campaign's project (spec 3.3, 4.6): plan from a
// project, read the candidates and warnings, start (convert or move), follow the progress and
// acknowledge a stopped server that can only arrive as a fresh install.

const live = (campaign: Campaign | undefined) =>
  campaign?.transfer?.state === Transfer_State.RUNNING ||
  campaign?.transfer?.state === Transfer_State.AWAITING_ACKNOWLEDGEMENT;

export function TransferPage() {
  const { account } = useCaller();
  const params = useParams<{ campaign: string }>();
  const name = `${account}/campaigns/${params.campaign}`;
  const campaign = useQuery(
    CampaignService.method.getCampaign,
    { name },
    { refetchInterval: (query) => (live(query.state.data) ? 1000 : false) },
  );
  if (campaign.isPending) return <Loading what="the campaign" />;
  if (!campaign.data) return <ErrorNote error={campaign.error} />;
  const c = campaign.data;
  const succeeded = c.transfer?.state === Transfer_State.SUCCEEDED;
  return (
    <>
      <p className="crumbs">
        <Link href="/">Campaigns</Link> › <Link href={`/campaigns/${params.campaign}`}>{c.displayName}</Link>
      </p>
      <h1>Transfer “{c.displayName}”</h1>
      <p className="hint">
        Players can buy once the game's servers run in the campaign's project, which only players' credit funds.
      </p>
      {c.transfer && <Progress campaign={c} />}
      {!succeeded && !live(c) && <Plan campaign={c} />}
    </>
  );
}

function Progress({ campaign }: { campaign: Campaign }) {
  const { can } = useCaller();
  const transfer = campaign.transfer;
  const acknowledge = useMutation(CampaignService.method.acknowledgeTransferItem);
  // Items are named as they were in the source project; a moved one keeps its id in the campaign's.
  const source = useQuery(
    HostingService.method.listResources,
    transfer?.sourceProject ? { parent: transfer.sourceProject, pageSize: 1000 } : skipToken,
  );
  const moved = useQuery(HostingService.method.listResources, { parent: campaign.project, pageSize: 1000 });
  const idOf = (name: string) => name.split("/").pop() ?? name;
  const names = new Map(
    [...(source.data?.resources ?? []), ...(moved.data?.resources ?? [])].map((r) => [idOf(r.name), r.displayName]),
  );
  const label = (name: string) => names.get(idOf(name)) ?? idOf(name);
  if (!transfer) return null;
  return (
    <section aria-labelledby="progress-h">
      <h2 id="progress-h">Progress</h2>
      <p role="status">
        <strong>{TRANSFER_STATE[transfer.state]}</strong> (
        {transfer.mode === Transfer_Mode.CONVERT ? "convert" : "move"}, started {formatTime(transfer.createTime)}
        {transfer.endTime && `, ended ${formatTime(transfer.endTime)}`})
      </p>
      {transfer.items.length > 0 && (
        <ul className="items">
          {transfer.items.map((item) => (
            <li key={item.resource}>
              <strong>{label(item.resource)}</strong>: {ITEM_STATE[item.state]}
              {item.detail && <span className="hint"> — {item.detail}</span>}
              {item.state === TransferItem_State.AWAITING_ACKNOWLEDGEMENT && can("project.projects.update") && (
                <button
                  type="button"
                  disabled={acknowledge.isPending}
                  onClick={() => acknowledge.mutate({ name: campaign.name, resource: item.resource })}
                >
                  Accept as a fresh install<span className="visually-hidden"> ({label(item.resource)})</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <ErrorNote error={acknowledge.error} />
    </section>
  );
}

function Plan({ campaign }: { campaign: Campaign }) {
  const { account, can } = useCaller();
  const id = useId();
  const projects = useQuery(HostingService.method.listProjects, { parent: account, pageSize: 100 });
  const [source, setSource] = useState("");
  const plan = useQuery(
    CampaignService.method.planTransfer,
    source ? { name: campaign.name, sourceProject: source } : skipToken,
  );
  const sources = projects.data?.projects.filter((p) => !p.topUpOnly) ?? [];
  return (
    <section aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Plan</h2>
      {projects.isPending && <Loading what="projects" />}
      <ErrorNote error={projects.error} />
      {projects.data && sources.length === 0 && <Empty>No project of yours holds servers to transfer.</Empty>}
      {sources.length > 0 && (
        <div className="inline">
          <label htmlFor={`${id}-source`}>Project the game runs in now</label>
          <select id={`${id}-source`} value={source} onChange={(e) => setSource(e.target.value)}>
            <option value="">Choose a project</option>
            {sources.map((p) => (
              <option key={p.name} value={p.name}>
                {p.displayName}
              </option>
            ))}
          </select>
        </div>
      )}
      {source && plan.isPending && <Loading what="the plan" />}
      <ErrorNote error={plan.error} />
      {plan.data && <PlanView campaign={campaign} plan={plan.data} canStart={can("encore.transfers.start")} />}
    </section>
  );
}

function PlanView({ campaign, plan, canStart }: { campaign: Campaign; plan: TransferPlan; canStart: boolean }) {
  const id = useId();
  const resources = useQuery(HostingService.method.listResources, { parent: plan.sourceProject, pageSize: 1000 });
  const label = (name: string) =>
    resources.data?.resources.find((r) => r.name === name)?.displayName ?? name.split("/").pop();
  // The plan's words name resources by their full names: shown by the names people gave them.
  const readable = (text: string) =>
    (resources.data?.resources ?? []).reduce((words, r) => words.replaceAll(r.name, `“${r.displayName}”`), text);
  const [mode, setMode] = useState<Transfer_Mode>(plan.recommendedMode);
  const [chosen, setChosen] = useState<Set<string>>(
    () => new Set(plan.candidates.filter((c) => c.belongsToGame && c.movable).map((c) => c.resource)),
  );
  const [accepted, setAccepted] = useState(false);
  const start = useMutation(CampaignService.method.startTransfer);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate({
      name: campaign.name,
      sourceProject: plan.sourceProject,
      mode,
      resources: mode === Transfer_Mode.MOVE ? [...chosen] : [],
      acknowledgeWarnings: accepted,
      requestId: crypto.randomUUID(),
    });
  };
  const toggle = (resource: string) => {
    const next = new Set(chosen);
    if (next.has(resource)) next.delete(resource);
    else next.add(resource);
    setChosen(next);
  };
  return (
    <form onSubmit={submit} className="plan">
      <p>
        <strong>Recommended: {plan.recommendedMode === Transfer_Mode.CONVERT ? "convert" : "move"}.</strong>{" "}
        {plan.explanation}
      </p>
      {plan.warnings.length > 0 && (
        <div className="warn" role="note" aria-labelledby={`${id}-w`}>
          <h3 id={`${id}-w`}>Warnings</h3>
          <ul>
            {plan.warnings.map((warning) => (
              <li key={warning}>{readable(warning)}</li>
            ))}
          </ul>
        </div>
      )}
      {plan.unlistedRegions.length > 0 && (
        <p className="warn">Could not be listed: {plan.unlistedRegions.join(", ")}.</p>
      )}
      <TableScroll label="Resources in the project">
        <table>
          <caption>Resources in the project</caption>
          <thead>
            <tr>
              {mode === Transfer_Mode.MOVE && <th scope="col">Move</th>}
              <th scope="col">Resource</th>
              <th scope="col">Region</th>
              <th scope="col">The game's</th>
              <th scope="col">Players connect to it</th>
              <th scope="col">Can move</th>
              <th scope="col">Arrives as a fresh install</th>
            </tr>
          </thead>
          <tbody>
            {plan.candidates.map((c) => (
              <tr key={c.resource}>
                {mode === Transfer_Mode.MOVE && (
                  <td>
                    <input
                      type="checkbox"
                      aria-label={`Move ${label(c.resource)}`}
                      checked={chosen.has(c.resource)}
                      onChange={() => toggle(c.resource)}
                      disabled={!c.movable}
                    />
                  </td>
                )}
                <th scope="row">{label(c.resource)}</th>
                <td>{c.region}</td>
                <td>{c.belongsToGame ? "Yes" : "No"}</td>
                <td>{c.clientFacing ? "Yes" : "No"}</td>
                <td>{c.movable ? "Yes" : "No"}</td>
                <td>{c.needsAcknowledgement ? "Yes: you will be asked" : "No"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {canStart && (
        <fieldset>
          <legend>How to transfer</legend>
          <label className="choice">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === Transfer_Mode.CONVERT}
              onChange={() => setMode(Transfer_Mode.CONVERT)}
            />
            <span>Convert: the whole project becomes the campaign's, at once, addresses kept</span>
          </label>
          <label className="choice">
            <input
              type="radio"
              name={`${id}-mode`}
              checked={mode === Transfer_Mode.MOVE}
              onChange={() => setMode(Transfer_Mode.MOVE)}
            />
            <span>Move: the resources ticked above, one by one, in the background</span>
          </label>
          {mode === Transfer_Mode.MOVE && plan.warnings.length > 0 && (
            <label className="choice">
              <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} />
              <span>I have read the warnings and accept them</span>
            </label>
          )}
          <button type="submit" disabled={start.isPending}>
            Start transfer
          </button>
        </fieldset>
      )}
      <ErrorNote error={start.error} />
      {start.isSuccess && <Done>Transfer started.</Done>}
    </form>
  );
}
