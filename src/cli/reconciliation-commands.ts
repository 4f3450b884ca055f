import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import {
  ListLinkReversalsResponseSchema,
  ListReconciliationFindingsResponseSchema,
  ReconciliationFinding_Kind,
  ReconciliationSchema,
} from "../../gen/encore/operator/v1/operator_service_pb.js";
import { resources } from "../domain/resource-names.js";
import { type CliEnvironment, commandContext, listCommand, type PagingOptions, pageRequest } from "./cli-context.js";
import { formatMoney } from "./dollars.js";
import { emit, listLines, messageJson } from "./output.js";

/** reconcile-link, list-link-reversals, list-reconciliation-findings. */
export function addReconciliationCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("reconcile-link")
    .description("reconcile a distributor link with Steam's report now (refunds, chargebacks, missed settlements)")
    .requiredOption("--link <name>", resources.link.pattern)
    .action(async (options: { link: string }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const pass = await client.reconcileDistributorLink({ name: options.link });
      emit(output, messageJson(ReconciliationSchema, pass), () => [
        `${pass.link}: ${pass.reversed} reversed (${formatMoney(pass.reversedCredit)}), ${pass.settled} settled, ` +
          `${pass.mismatches} ended but settled by Steam, ${pass.pages} pages, ${pass.drained ? "drained" : `stopped: ${pass.stoppedBecause}`}`,
      ]);
    });

  listCommand(program, "list-link-reversals", "links")
    .description("distributor links with their reversals and reversal rate; FLAGGED past the operator's threshold")
    .option("--flagged", "only flagged links")
    .action(async (options: PagingOptions & { flagged?: boolean }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const page = await client.listLinkReversals({ flaggedOnly: options.flagged === true, ...pageRequest(options) });
      emit(output, messageJson(ListLinkReversalsResponseSchema, page), () => [
        `over ${page.windowDays} days, flagged at ${page.flagRatePercent}%:`,
        ...listLines(
          page.linkReversals.map(
            (link) =>
              `${link.flagged ? "FLAGGED " : ""}${link.link} (${link.displayName}): ` +
              `${formatMoney(link.windowReversed)} of ${formatMoney(link.windowIssued)} reversed ` +
              `(${formatBps(link.windowReversalRateBps)}, ${link.windowReversalCount} purchases); ` +
              `all time ${formatMoney(link.reversed)} of ${formatMoney(link.issued)}`,
          ),
          options.flagged ? "no flagged distributor links" : "no distributor links",
          page.nextPageToken,
        ),
      ]);
    });

  listCommand(program, "list-reconciliation-findings", "findings")
    .description(
      "why reconciliation changed the books (credited from the report; settled and taken back, nothing owed)",
    )
    .option("--link <name>", `only this link: ${resources.link.pattern}`)
    .action(async (options: PagingOptions & { link?: string }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const page = await client.listReconciliationFindings({ link: options.link ?? "", ...pageRequest(options) });
      emit(output, messageJson(ListReconciliationFindingsResponseSchema, page), () =>
        listLines(
          page.reconciliationFindings.map(
            (finding) =>
              `${finding.createTime ? timestampDate(finding.createTime).toISOString() : ""} ` +
              `${ReconciliationFinding_Kind[finding.kind]} ${finding.purchase} (report: ${finding.reportStatus}): ${finding.detail}`,
          ),
          options.link ? `no reconciliation findings for ${options.link}` : "no reconciliation findings",
          page.nextPageToken,
        ),
      );
    });
}

function formatBps(bps: bigint): string {
  return `${bps / 100n}.${(bps % 100n).toString().padStart(2, "0")}%`;
}
