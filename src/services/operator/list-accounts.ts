import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListAccountsRequest,
  ListAccountsResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { toAccount } from "../account/account-mapper.js";
import { listAccounts } from "../account/account-store.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens, readPageSize } from "../page-token.js";
import { requireOperator } from "../principal.js";

/** Every account, paged by id (creation order). */
export function createListAccounts(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListAccountsRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListAccountsResponseSchema>> => {
    requireOperator(ctx);
    const size = readPageSize(request.pageSize);
    const scope = "accounts";
    const after = pages.decode(scope, request.pageToken)?.[0];
    const rows = await listAccounts(deps.db, { take: size + 1, after });
    const page = pages.page({ scope, rows, size, cursorOf: (row) => [row.id] });
    return { accounts: page.items.map(toAccount), nextPageToken: page.nextPageToken };
  };
}
