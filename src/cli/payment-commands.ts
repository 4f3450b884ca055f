import type { Command } from "commander";
import { resources } from "../domain/resource-names.js";
import { paymentWebhookSecret } from "../platform/billing/payment-signature.js";
import { signPaymentEvent } from "../platform/billing/sign-payment-event.js";
import type { CliEnvironment, GlobalOptions } from "./cli-context.js";
import { localSecret, readCa, serviceUrl } from "./operator-client.js";
import { emit } from "./output.js";

/** simulate-payment: plays the payment provider telling the service a checkout was paid. */
export function addPaymentCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("simulate-payment")
    .description("sign and send the provider's checkout.paid event for a session (credits it once)")
    .requiredOption("--session <name>", resources.checkoutSession.pattern)
    .action(async (options: { session: string }, command: Command) => {
      const { json, ...connection } = command.optsWithGlobals<GlobalOptions>();
      if (!resources.checkoutSession.parse(options.session).ok) {
        throw new Error(`"${options.session}" is not ${resources.checkoutSession.pattern}.`);
      }
      const reply = await signPaymentEvent({
        baseUrl: serviceUrl(connection, environment.env),
        secret: resolveWebhookSecret(environment.env),
        checkoutSession: options.session,
        tls: { ...(connection.ca && { ca: readCa(connection.ca) }), insecure: connection.insecure === true },
      });
      if (reply.status !== 200) throw new Error(`the webhook answered ${reply.status}: ${describe(reply.body)}`);
      // An ignored event credited nothing (an unknown or expired session): a failure to the operator.
      if ((reply.body as { result?: unknown }).result === "ignored") {
        throw new Error(`${options.session}: not credited: ${describe(reply.body)}`);
      }
      emit({ json: json === true, write: environment.write }, reply.body, () => [
        `${options.session}: ${describe(reply.body)}`,
      ]);
    });
}

/**
 * The secret the service uses (app.ts): PAYMENT_WEBHOOK_SECRET, else derived from the master
 * key, which is ENCORE_MASTER_KEY or the one kept beside the embedded database (DESIGN 4).
 */
function resolveWebhookSecret(env: NodeJS.ProcessEnv): string {
  if (env.PAYMENT_WEBHOOK_SECRET) return env.PAYMENT_WEBHOOK_SECRET;
  const masterKey = env.ENCORE_MASTER_KEY ?? localSecret(env, "masterKey").value;
  if (!masterKey) {
    throw new Error("no webhook secret: set PAYMENT_WEBHOOK_SECRET or ENCORE_MASTER_KEY, or run beside the DATA_DIR");
  }
  return paymentWebhookSecret(undefined, Buffer.from(masterKey, "base64"));
}

/** `credited`, `duplicate`, `ignored (reason)`, or a google.rpc.Status's message. */
function describe(body: unknown): string {
  if (typeof body !== "object" || body === null) return String(body);
  const { result, reason, message } = body as { result?: unknown; reason?: unknown; message?: unknown };
  if (typeof result === "string") return typeof reason === "string" ? `${result} (${reason})` : result;
  return typeof message === "string" ? message : JSON.stringify(body);
}
