import type { Command } from "commander";
import { PublisherKeyReencryptionSchema } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { type CliEnvironment, commandContext } from "./cli-context.js";
import { emit, messageJson } from "./output.js";

/** reencrypt-publisher-keys (publisher keys and webhook signing secrets): the last step of a master key rotation (docs/deploy.md). */
export function addKeyCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("reencrypt-publisher-keys")
    .description(
      "seal every publisher key and webhook signing secret again under ENCORE_MASTER_KEY (after a rotation); exits 1 while any is left under another key",
    )
    .action(async (_options: unknown, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const pass = await client.reencryptPublisherKeys({});
      emit(output, messageJson(PublisherKeyReencryptionSchema, pass), () => [
        `master key ${pass.masterKeyId}: ${pass.reencrypted} publisher keys re-encrypted, ` +
          `${pass.remaining} not under it (${pass.unreadable} unreadable); ` +
          `${pass.webhookSecretsReencrypted} webhook signing secrets re-encrypted, ` +
          `${pass.webhookSecretsRemaining} not under it (${pass.webhookSecretsUnreadable} unreadable)`,
      ]);
      const remaining = pass.remaining + pass.webhookSecretsRemaining;
      if (remaining > 0) {
        const unreadable = pass.unreadable + pass.webhookSecretsUnreadable;
        throw new Error(
          `${remaining} secrets are not under master key ${pass.masterKeyId} yet: keep ENCORE_MASTER_KEY_PREVIOUS` +
            (unreadable > 0 ? "; the service's log names the links or endpoints no key opens" : " and run this again"),
        );
      }
    });
}
