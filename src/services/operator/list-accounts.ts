import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListAccountsRequest,
  type ListAccountsResponse,
  ListAccountsResponseSchema,
} from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listAccounts } from "../../store/accounts.js";
import { toAccount } from "../account/account-mapper.js";
import { listById } from "../list-page.js";
import { requireOperator } from "../principal.js";

/** Every account, paged by id (creation order). */
export function createListAccounts(deps: ServiceDeps) {
  return async (request: ListAccountsRequest, ctx: HandlerContext): Promise<ListAccountsResponse> => {
    requireOperator(ctx);
    const page = await listById(deps, request, {
      scope: "accounts",
      load: (next) => listAccounts(deps.db, next),
    });
    return create(ListAccountsResponseSchema, {
      accounts: page.items.map(toAccount),
      nextPageToken: page.nextPageToken,
    });
  };
}
