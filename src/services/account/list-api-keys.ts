import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListApiKeysRequest,
  ListApiKeysResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens, readPageSize } from "../page-token.js";
import { authorize } from "../principal.js";
import { toApiKey } from "./account-mapper.js";
import { parseAccountName } from "./account-names.js";
import { listApiKeys } from "./account-store.js";
import { accountNotFound } from "./get-account.js";

/** The account's keys, without secrets; paged by id (creation order). */
export function createListApiKeys(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListApiKeysRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListApiKeysResponseSchema>> => {
    const accountId = parseAccountName(request.parent, "parent");
    authorize(ctx, "account.apiKeys.list", accountId, accountNotFound(request.parent));
    const size = readPageSize(request.pageSize);
    const scope = `apiKeys:${accountId}`;
    const after = pages.decode(scope, request.pageToken)?.[0];
    const rows = await listApiKeys(deps.db, accountId, { take: size + 1, after });
    const page = pages.page({ scope, rows, size, cursorOf: (row) => [row.id] });
    return { apiKeys: page.items.map((row) => toApiKey(row)), nextPageToken: page.nextPageToken };
  };
}
