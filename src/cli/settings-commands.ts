import type { Command } from "commander";
import { type Settings, SettingsSchema } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { type CliEnvironment, commandContext } from "./cli-context.js";
import { formatMoney, parseDollars } from "./dollars.js";
import { emit, messageJson, type Output } from "./output.js";

/** get-settings, set-default-outstanding-limit, set-allowed-origins. */
export function addSettingsCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("get-settings")
    .description("show the default outstanding limit and the allowed CORS origins")
    .action(async (_options: unknown, command: Command) => {
      const { client, output } = commandContext(command, environment);
      print(output, await client.getSettings({}));
    });

  program
    .command("set-default-outstanding-limit")
    .description("the outstanding limit new distributor links start with")
    .requiredOption("--amount <dollars>", "USD, e.g. 250", parseDollars)
    .action(async (options: { amount: ReturnType<typeof parseDollars> }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const settings = await client.updateSettings({
        settings: { defaultOutstandingLimit: options.amount },
        updateMask: { paths: ["default_outstanding_limit"] },
      });
      print(output, settings);
    });

  program
    .command("set-allowed-origins")
    .description("replace the browser origins allowed to call the public API (none: allow none)")
    .argument("[origins...]", "each exactly scheme://host[:port], e.g. https://game.example")
    .action(async (origins: string[], _options: unknown, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const settings = await client.updateSettings({
        settings: { allowedOrigins: origins },
        updateMask: { paths: ["allowed_origins"] },
      });
      print(output, settings);
    });
}

function print(output: Output, settings: Settings): void {
  emit(output, messageJson(SettingsSchema, settings), () => [
    `default outstanding limit: ${formatMoney(settings.defaultOutstandingLimit)}`,
    `allowed origins: ${settings.allowedOrigins.length > 0 ? settings.allowedOrigins.join(" ") : "(none)"}`,
  ]);
}
