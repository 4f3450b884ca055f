import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/encore/account/v1/account_service_pb.js";
import { API_KEY_PREFIX, issueToken } from "../../core/credentials.js";
import type { ServiceDeps } from "../../core/deps.js";
import { newId } from "../../core/ids.js";
import { resources } from "../../domain/resource-names.js";
import { deleteApiKey, insertApiKey, listApiKeys } from "../../store/api-keys.js";
import { readDisplayName } from "../display-name.js";
import { listInAccount } from "../list-page.js";
import { authorizeParent, readRequired } from "../management-access.js";
import { readRole, toApiKey } from "./account-mapper.js";
import { accountNotFound } from "./account-methods.js";
import { deleteOwnerGuarded } from "./last-owner.js";

const apiKeyNotFound = (name: string) => `API key "${name}" not found.`;

/** An account's API keys. */
export function createApiKeyMethods(deps: ServiceDeps): ApiKeyMethods {
  return {
    /** Creates a key; its secret is in this response once and only its SHA-256 is stored. */
    async createApiKey(request, ctx) {
      const accountId = authorizeParent(ctx, "account.apiKeys.create", request.parent, accountNotFound);
      const input = readRequired(request.apiKey, "apiKey");
      const role = readRole(input.role, "apiKey.role");
      const displayName = readDisplayName(input.displayName.trim(), "apiKey.displayName", { max: 200 });
      const now = deps.now();
      const secret = issueToken(API_KEY_PREFIX);
      const row = await insertApiKey(deps.db, {
        id: newId(now),
        accountId,
        displayName,
        role,
        keyHash: secret.hash,
        keyPrefix: secret.displayPrefix,
        createTime: now,
      });
      return toApiKey(row, secret.token);
    },

    /** The account's keys, without secrets; paged by id (creation order). */
    listApiKeys: listInAccount(deps, {
      field: "apiKeys",
      permission: "account.apiKeys.list",
      load: listApiKeys,
      toItem: toApiKey,
      missing: accountNotFound,
    }),

    /**
     * Deletes a key; the next call presenting it is UNAUTHENTICATED. The account's last owner
     * key, with no owner member left, stays: LAST_OWNER (last-owner.ts).
     */
    deleteApiKey: deleteOwnerGuarded(deps, {
      permission: "account.apiKeys.delete",
      resource: resources.apiKey,
      missing: apiKeyNotFound,
      remove: (name) => deleteApiKey(deps.db, name.accountId, name.apiKeyId),
    }),
  };
}

type ApiKeyMethods = Pick<ServiceImpl<typeof AccountService>, "createApiKey" | "listApiKeys" | "deleteApiKey">;
