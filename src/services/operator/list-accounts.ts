import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListAccountsRequest,
  ListAccountsResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import { listAccounts } from "../../store/accounts.js";
import { toAccount } from "../account/account-mapper.js";
import { listById } from "../account/list-by-id.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { requireOperator } from "../principal.js";

/** Every account, paged by id (creation order). */
export function createListAccounts(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListAccountsRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListAccountsResponseSchema>> => {
    requireOperator(ctx);
    const page = await listById(pages, {
      scope: "accounts",
      pageSize: request.pageSize,
      pageToken: request.pageToken,
      load: (next) => listAccounts(deps.db, next),
    });
    return { accounts: page.items.map(toAccount), nextPageToken: page.nextPageToken };
  };
}
