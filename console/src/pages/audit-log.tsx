import { useQuery } from "@connectrpc/connect-query";
import { AccountService, type AuditEvent, AuditService } from "@encore-campaigns/client";
import { type FormEvent, useId, useState } from "react";
import { useCaller } from "../caller";
import { Pager, usePages } from "../components/pager";
import { Empty, ErrorNote, Loading } from "../components/status";
import { TableScroll } from "../components/table-scroll";
import { dayRangeTerms, formatTime } from "../time";
import { ACTOR_TYPE, methodWords, outcomeWords } from "../words";

// The audit log (AuditService.ListAuditEvents): every write made in the account, who
// made it, from where and how it ended, newest first, filtered by resource, actor and UTC days,
// a page at a time. Owner and admin only (audit.auditEvents.list); the navigation leaves the
// page out for the others.

export const AUDIT_PERMISSION = "audit.auditEvents.list";
const PAGE_SIZE = 50;

interface AuditFilters {
  resource: string;
  actor: string;
  from: string;
  to: string;
}
const NO_FILTERS: AuditFilters = { resource: "", actor: "", from: "", to: "" };

/** ListAuditEvents' filter (AIP-160). Names hold no quotes or backslashes, so neither is sent. */
export function auditFilter(filters: AuditFilters): string {
  const clean = (value: string) => value.trim().replace(/["\\]/g, "");
  const terms: string[] = [];
  if (clean(filters.resource)) terms.push(`resource = "${clean(filters.resource)}"`);
  if (clean(filters.actor)) terms.push(`actor = "${clean(filters.actor)}"`);
  return [...terms, ...dayRangeTerms(filters.from, filters.to)].join(" AND ");
}

export function AuditLogPage() {
  const id = useId();
  // What is typed, and what was applied (text filters apply on submit, not per keystroke).
  const [typed, setTyped] = useState(NO_FILTERS);
  const [applied, setApplied] = useState(NO_FILTERS);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setApplied(typed);
  };
  const field = (key: keyof AuditFilters) => ({
    id: `${id}-${key}`,
    value: typed[key],
    onChange: (event: { target: { value: string } }) => setTyped({ ...typed, [key]: event.target.value }),
  });
  return (
    <>
      <h1>Audit log</h1>
      <p className="explanation">
        Every change made in this account through the API or this console, and every refused attempt: who made it, what
        it changed (field names only, never values), from which address, and how it ended. Newest first.
      </p>
      <form className="filters" onSubmit={apply} aria-label="Filter the audit log">
        <div>
          <label htmlFor={`${id}-resource`}>Resource (full name)</label>
          <input {...field("resource")} spellCheck={false} placeholder="accounts/…/campaigns/…" />
        </div>
        <div>
          <label htmlFor={`${id}-actor`}>Actor (API key, member or “operator”)</label>
          <input {...field("actor")} spellCheck={false} placeholder="accounts/…/apiKeys/…" />
        </div>
        <div>
          <label htmlFor={`${id}-from`}>From (UTC day)</label>
          <input {...field("from")} type="date" />
        </div>
        <div>
          <label htmlFor={`${id}-to`}>To (UTC day, included)</label>
          <input {...field("to")} type="date" />
        </div>
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setTyped(NO_FILTERS);
              setApplied(NO_FILTERS);
            }}
          >
            Clear filters
          </button>
        </div>
      </form>
      <AuditTable
        filter={auditFilter(applied)}
        onFilter={(more) => {
          setTyped({ ...typed, ...more });
          setApplied({ ...typed, ...more });
        }}
      />
    </>
  );
}

function AuditTable({ filter, onFilter }: { filter: string; onFilter: (more: Partial<AuditFilters>) => void }) {
  const caller = useCaller();
  const names = useActorNames();
  const pages = usePages(filter);
  const { pageToken } = pages;
  const events = useQuery(AuditService.method.listAuditEvents, {
    parent: caller.account,
    pageSize: PAGE_SIZE,
    pageToken,
    filter,
  });
  if (events.isPending) return <Loading what="the audit log" />;
  if (!events.data) return <ErrorNote error={events.error} />;
  const page = events.data;
  const actorLabel = (event: AuditEvent) => {
    const known = names.get(event.actor);
    const you = event.actor !== "" && event.actor === caller.self ? " (you)" : "";
    return `${ACTOR_TYPE[event.actorType]}${known ? ` “${known}”` : ""}${you}`;
  };
  return (
    <>
      {page.auditEvents.length === 0 ? (
        <Empty>{filter ? "No event matches these filters." : "Nothing recorded yet."}</Empty>
      ) : (
        <TableScroll label="Audit events">
          <table className="audit">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Actor</th>
                <th scope="col">Action</th>
                <th scope="col">Resource</th>
                <th scope="col">Changed fields</th>
                <th scope="col">Address</th>
                <th scope="col">Outcome</th>
              </tr>
            </thead>
            <tbody>
              {page.auditEvents.map((event) => (
                <tr key={event.name}>
                  <th scope="row">{formatTime(event.createTime)}</th>
                  <td>
                    {actorLabel(event)}
                    {event.actor && (
                      <>
                        {/* The name alone where no key or member name was found for it. */}
                        {!names.has(event.actor) && event.actor !== "operator" && (
                          <>
                            <br />
                            <code>{event.actor}</code>
                          </>
                        )}{" "}
                        <button
                          type="button"
                          className="link"
                          onClick={() => onFilter({ actor: event.actor })}
                          aria-label={`Filter by this actor (${event.actor})`}
                        >
                          filter
                        </button>
                      </>
                    )}
                  </td>
                  <td>
                    <span title={event.method}>{methodWords(event.method)}</span>
                  </td>
                  <td>
                    {event.resource ? (
                      <>
                        <code>{event.resource}</code>{" "}
                        <button
                          type="button"
                          className="link"
                          onClick={() => onFilter({ resource: event.resource })}
                          aria-label={`Filter by this resource (${event.resource})`}
                        >
                          filter
                        </button>
                      </>
                    ) : (
                      "—"
                    )}
                  </td>
                  <td>{event.changedFields.length ? event.changedFields.join(", ") : "—"}</td>
                  <td>{event.address || "—"}</td>
                  <td className={event.code === 0 ? "ok" : "warn"}>{outcomeWords(event.code)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager label="Pages of the audit log" pages={pages} nextPageToken={page.nextPageToken} />
    </>
  );
}

/**
 * API keys' and members' own names for the actors, where the role may list them (keys: owner;
 * members: owner and admin); otherwise the actor is shown by its resource name alone.
 */
function useActorNames(): Map<string, string> {
  const caller = useCaller();
  const keys = useQuery(
    AccountService.method.listApiKeys,
    { parent: caller.account, pageSize: 100 },
    { enabled: caller.can("account.apiKeys.list") },
  );
  const members = useQuery(
    AccountService.method.listMembers,
    { parent: caller.account, pageSize: 100 },
    { enabled: caller.can("account.members.list") },
  );
  const names = new Map<string, string>();
  for (const key of keys.data?.apiKeys ?? []) names.set(key.name, key.displayName || key.keyPrefix);
  for (const member of members.data?.members ?? []) names.set(member.name, member.email);
  return names;
}
