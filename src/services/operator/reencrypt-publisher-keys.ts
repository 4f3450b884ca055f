import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { masterKeyId, openSecret, sealedHeader, sealSecret } from "../../core/secret-box.js";
import { SecretKeyUnavailable } from "../../errors/sealed-secret.js";
import { reencryptSealedColumn, SEALED_COLUMNS, type SealedColumn } from "../../store/master-key-reencryption.js";
import { requireOperator } from "../principal.js";

// Rows per transaction: each holds its batch's rows locked only for a few decryptions.
const BATCH_SIZE = 100;

/**
 * The last step of a master key rotation (docs/deploy.md): every publisher key and webhook
 * signing secret not sealed under ENCORE_MASTER_KEY is opened (under
 * ENCORE_MASTER_KEY_PREVIOUS, or for rows from before key ids by trying both) and sealed under
 * it. A box neither opens is logged by its row, with the master key ids only, and left as it is.
 */
export function createReencryptPublisherKeys(
  deps: ServiceDeps,
): ServiceImpl<typeof OperatorService>["reencryptPublisherKeys"] {
  return async (_request, ctx) => {
    requireOperator(ctx);
    const log = deps.logger.child({ job: "master key re-encryption" });
    const pass = (sealed: SealedColumn, rowField: "linkId" | "webhookEndpointId", what: string) =>
      reencryptSealedColumn(deps.db, sealed, {
        currentHeader: sealedHeader(deps.masterKeys.current),
        batchSize: BATCH_SIZE,
        reencrypt: ({ id, box }) => {
          try {
            return sealSecret(deps.masterKeys, openSecret(deps.masterKeys, box));
          } catch (error) {
            if (!(error instanceof SecretKeyUnavailable)) throw error;
            log.warn({ [rowField]: id, error: error.message }, `${what} left under its old master key`);
            return undefined;
          }
        },
      });
    const keys = await pass(SEALED_COLUMNS.publisherKey, "linkId", "publisher key");
    const secrets = await pass(SEALED_COLUMNS.webhookSecret, "webhookEndpointId", "webhook signing secret");
    const previousSecrets = await pass(
      SEALED_COLUMNS.previousWebhookSecret,
      "webhookEndpointId",
      "previous webhook signing secret",
    );
    const masterKey = masterKeyId(deps.masterKeys.current);
    const webhookSecrets = {
      reencrypted: secrets.reencrypted + previousSecrets.reencrypted,
      unreadable: secrets.unreadable + previousSecrets.unreadable,
      remaining: secrets.remaining + previousSecrets.remaining,
    };
    log.info({ masterKeyId: masterKey, publisherKeys: keys, webhookSecrets }, "secrets re-encrypted");
    return {
      masterKeyId: masterKey,
      ...keys,
      webhookSecretsReencrypted: webhookSecrets.reencrypted,
      webhookSecretsUnreadable: webhookSecrets.unreadable,
      webhookSecretsRemaining: webhookSecrets.remaining,
    };
  };
}
