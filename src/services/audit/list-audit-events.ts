import type { ServiceDeps } from "../../core/deps.js";
import { listAuditEvents } from "../../store/audit-events.js";
import { listPage } from "../list-page.js";
import { parseAuditFilter } from "./audit-filter.js";
import { toAuditEvent } from "./audit-mapper.js";

export interface AuditPageOptions {
  /** The caller's account, or undefined for the operator (every account, and none). */
  accountId: string | undefined;
  filter: string;
  pageSize: number;
  pageToken: string;
}

/**
 * One page of audit events, newest first. A page token is good only for the list (account
 * and filter) that issued it (AIP-158).
 */
export async function listAuditEventsPage(deps: Pick<ServiceDeps, "db" | "pageTokens">, options: AuditPageOptions) {
  const operator = options.accountId === undefined;
  const filter = parseAuditFilter(options.filter, { operator });
  const page = await listPage(deps, options, {
    scope: `auditEvents:${options.accountId ?? "*"}:${options.filter}`,
    load: (next) =>
      listAuditEvents(deps.db, { ...filter, accountId: operator ? filter.accountId : options.accountId, ...next }),
    cursorOf: (row) => row.cursor,
  });
  return { auditEvents: page.items.map(toAuditEvent), nextPageToken: page.nextPageToken };
}
