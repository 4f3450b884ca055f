import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import type {
  ListApiKeysRequest,
  ListApiKeysResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import { parseAccountName } from "../../domain/resource-names.js";
import { listApiKeys } from "../../store/api-keys.js";
import { readName } from "../campaign/management-access.js";
import type { ServiceDeps } from "../deps.js";
import { createPageTokens } from "../page-token.js";
import { authorize } from "../principal.js";
import { toApiKey } from "./account-mapper.js";
import { ACCOUNT_SHAPE, accountNotFound } from "./get-account.js";
import { listById } from "./list-by-id.js";

/** The account's keys, without secrets; paged by id (creation order). */
export function createListApiKeys(deps: ServiceDeps) {
  const pages = createPageTokens(deps.masterKey);
  return async (
    request: ListApiKeysRequest,
    ctx: HandlerContext,
  ): Promise<MessageInitShape<typeof ListApiKeysResponseSchema>> => {
    const { accountId } = readName(parseAccountName(request.parent), "parent", ACCOUNT_SHAPE);
    authorize(ctx, "account.apiKeys.list", accountId, accountNotFound(request.parent));
    const page = await listById(pages, {
      scope: `apiKeys:${accountId}`,
      pageSize: request.pageSize,
      pageToken: request.pageToken,
      load: (next) => listApiKeys(deps.db, accountId, next),
    });
    return { apiKeys: page.items.map((row) => toApiKey(row)), nextPageToken: page.nextPageToken };
  };
}
