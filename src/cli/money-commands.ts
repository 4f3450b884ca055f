import type { Command } from "commander";
import { DistributorLinkSchema, SettlementSchema } from "../../gen/encore/campaign/v1/distributor_link_pb.js";
import { resources } from "../domain/resource-names.js";
import { type CliEnvironment, commandContext } from "./cli-context.js";
import { formatMoney, parseDollars } from "./dollars.js";
import { emit, messageJson } from "./output.js";

/** set-outstanding-limit, record-settlement. */
export function addMoneyCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("set-outstanding-limit")
    .description("set a distributor link's outstanding limit")
    .requiredOption("--link <name>", resources.link.pattern)
    .requiredOption("--amount <dollars>", "USD, e.g. 500 or 499.99", parseDollars)
    .action(async (options: { link: string; amount: ReturnType<typeof parseDollars> }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const link = await client.setOutstandingLimit({ name: options.link, outstandingLimit: options.amount });
      emit(output, messageJson(DistributorLinkSchema, link), () => [
        `${link.name}: limit ${formatMoney(link.outstandingLimit)}, outstanding ${formatMoney(link.outstanding)}`,
      ]);
    });

  program
    .command("record-settlement")
    .description("record what an account paid for credit already issued; lowers the link's outstanding")
    .requiredOption("--link <name>", resources.link.pattern)
    .requiredOption("--amount <dollars>", "USD, at most the link's outstanding", parseDollars)
    .option("--reference <text>", "invoice or bank transfer reference")
    .option("--request-id <id>", "makes a retry record it once")
    .action(
      async (
        options: { link: string; amount: ReturnType<typeof parseDollars>; reference?: string; requestId?: string },
        command: Command,
      ) => {
        const { client, output } = commandContext(command, environment);
        const settlement = await client.recordSettlement({
          parent: options.link,
          amount: options.amount,
          reference: options.reference ?? "",
          requestId: options.requestId ?? "",
        });
        emit(output, messageJson(SettlementSchema, settlement), () => [
          `${settlement.name}: ${formatMoney(settlement.amount)} ${settlement.reference}`.trimEnd(),
        ]);
      },
    );
}
