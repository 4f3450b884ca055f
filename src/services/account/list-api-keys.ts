import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import {
  type ListApiKeysRequest,
  type ListApiKeysResponse,
  ListApiKeysResponseSchema,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { listApiKeys } from "../../store/api-keys.js";
import { listById } from "../list-page.js";
import { authorizeParent } from "../management-access.js";
import { toApiKey } from "./account-mapper.js";
import { accountNotFound } from "./get-account.js";

/** The account's keys, without secrets; paged by id (creation order). */
export function createListApiKeys(deps: ServiceDeps) {
  return async (request: ListApiKeysRequest, ctx: HandlerContext): Promise<ListApiKeysResponse> => {
    const accountId = authorizeParent(ctx, "account.apiKeys.list", request.parent, accountNotFound);
    const page = await listById(deps, request, {
      scope: `apiKeys:${accountId}`,
      load: (next) => listApiKeys(deps.db, accountId, next),
    });
    return create(ListApiKeysResponseSchema, {
      apiKeys: page.items.map((row) => toApiKey(row)),
      nextPageToken: page.nextPageToken,
    });
  };
}
