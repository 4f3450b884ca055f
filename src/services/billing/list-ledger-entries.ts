import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListLedgerEntriesRequest,
  type ListLedgerEntriesResponse,
  ListLedgerEntriesResponseSchema,
} from "../../../gen/encore/billing/v1/billing_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listLedgerEntries } from "../../store/ledger.js";
import { loadProject } from "../hosting/project-access.js";
import { listPage } from "../list-page.js";
import { toLedgerEntry } from "./billing-mapper.js";
import { parseLedgerFilter } from "./ledger-filter.js";

/** ListLedgerEntries: a project's ledger, newest first, optionally filtered by type and time. */
export function createListLedgerEntries(deps: ServiceDeps) {
  return async (request: ListLedgerEntriesRequest, ctx: HandlerContext): Promise<ListLedgerEntriesResponse> => {
    const project = await loadProject(deps, {
      ctx,
      permission: "billing.ledgerEntries.list",
      text: request.parent,
      field: "parent",
    });
    const filter = parseLedgerFilter(request.filter);
    const page = await listPage(deps, request, {
      // A token is good only for the list (project and filter) that issued it.
      scope: `ledger:${project.id}:${request.filter}`,
      load: (next) => listLedgerEntries(deps.db, { projectId: project.id, ...filter, ...next }),
      cursorOf: (row) => row.cursor,
    });
    return create(ListLedgerEntriesResponseSchema, {
      ledgerEntries: page.items.map((row) => toLedgerEntry(project, row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
