import { Command } from "commander";
import { addAccountCommands } from "./account-commands.js";
import { addAuditCommands } from "./audit-commands.js";
import type { CliEnvironment } from "./cli-context.js";
import { addKeyCommands } from "./key-commands.js";
import { addMoneyCommands } from "./money-commands.js";
import { DEFAULT_URL } from "./operator-client.js";
import { addPaymentCommands } from "./payment-commands.js";
import { addReconciliationCommands } from "./reconciliation-commands.js";
import { addReviewCommands } from "./review-commands.js";
import { addSettingsCommands } from "./settings-commands.js";

/** `npm run admin -- <command>`: the operator's command line over OperatorService. */
export function createProgram(environment: CliEnvironment): Command {
  const program = new Command("admin")
    .description("Encore Campaigns operator commands")
    .option("--url <url>", `the service (default: ENCORE_URL or ${DEFAULT_URL})`)
    .option("--token <token>", "the operator token (default: OPERATOR_TOKEN, else DATA_DIR/secrets.json)")
    .option("--ca <file>", "PEM certificate authorities to trust for an https:// service")
    .option("--insecure", "do not verify an https:// service's certificate (a self-signed one on this machine)")
    .option("--json", "print JSON for scripts")
    .showHelpAfterError()
    .exitOverride();
  addAccountCommands(program, environment);
  addReviewCommands(program, environment);
  addMoneyCommands(program, environment);
  addSettingsCommands(program, environment);
  addPaymentCommands(program, environment);
  addReconciliationCommands(program, environment);
  addKeyCommands(program, environment);
  addAuditCommands(program, environment);
  return program;
}
