import type { ServiceDeps } from "../../core/deps.js";
import type { Page } from "../../core/page-token.js";
import { type AuditEventRow, listAuditEvents } from "../../store/audit-events.js";
import { listPage } from "../list-page.js";
import { parseAuditFilter } from "./audit-filter.js";

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
export function pageAuditEvents(
  deps: Pick<ServiceDeps, "db" | "pageTokens">,
  options: AuditPageOptions,
): Promise<Page<AuditEventRow>> {
  const operator = options.accountId === undefined;
  const filter = parseAuditFilter(options.filter, { operator });
  return listPage(deps, options, {
    scope: `auditEvents:${options.accountId ?? "*"}:${options.filter}`,
    load: (next) =>
      listAuditEvents(deps.db, { ...filter, accountId: operator ? filter.accountId : options.accountId, ...next }),
    cursorOf: (row) => row.cursor,
  });
}
