import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { Command } from "commander";
import { type AuditEvent, AuditEvent_ActorType } from "../../gen/encore/audit/v1/audit_service_pb.js";
import { ListAllAuditEventsResponseSchema } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { type CliEnvironment, commandContext, listCommand, type PagingOptions, pageRequest } from "./cli-context.js";
import { emit, listLines, messageJson } from "./output.js";

interface ListOptions extends PagingOptions {
  /** An account's name, or false (`--no-account`) for events of no account. */
  account?: string | false;
  resource?: string;
  actor?: string;
  method?: string;
  since?: string;
  before?: string;
}

/** list-audit-events: every account's audit log, newest first. */
export function addAuditCommands(program: Command, environment: CliEnvironment): void {
  listCommand(program, "list-audit-events", "events")
    .description("the audit log: every write through the API and every failed authentication, newest first")
    .option("--account <name>", "only this account's: accounts/{account}")
    .option("--no-account", "only events of no account (service-wide operator calls, failed authentications)")
    .option("--resource <name>", "only calls on this resource")
    .option("--actor <name>", "only calls by this API key, member, or operator")
    .option("--method <rpc>", "only this RPC, e.g. encore.campaign.v1.CampaignService/UpdateCampaign")
    .option("--since <time>", "only events at or after this RFC 3339 time")
    .option("--before <time>", "only events before this RFC 3339 time")
    .action(async (options: ListOptions, command: Command) => {
      const { audit, output } = commandContext(command, environment);
      const page = await audit.listAllAuditEvents({ filter: auditFilter(options), ...pageRequest(options) });
      emit(output, messageJson(ListAllAuditEventsResponseSchema, page), () =>
        listLines(page.auditEvents.map(auditLine), "no audit events", page.nextPageToken),
      );
    });
}

/** The service's filter (AIP-160 terms joined with AND) from the command's flags. */
export function auditFilter(options: ListOptions): string {
  const terms: string[] = [];
  if (options.account === false) terms.push('account = ""');
  else if (options.account !== undefined) terms.push(`account = ${quoted(options.account)}`);
  if (options.resource !== undefined) terms.push(`resource = ${quoted(options.resource)}`);
  if (options.actor !== undefined) terms.push(`actor = ${quoted(options.actor)}`);
  if (options.method !== undefined) terms.push(`method = ${quoted(options.method)}`);
  if (options.since !== undefined) terms.push(`create_time >= ${quoted(options.since)}`);
  if (options.before !== undefined) terms.push(`create_time < ${quoted(options.before)}`);
  return terms.join(" AND ");
}

function quoted(value: string): string {
  if (value.includes('"')) throw new Error(`"${value}" cannot hold a double quote.`);
  return `"${value}"`;
}

function auditLine(event: AuditEvent): string {
  const when = event.createTime ? timestampDate(event.createTime).toISOString() : "";
  const outcome = event.code === 0 ? "OK" : (Code[event.code] ?? String(event.code));
  const who = event.actorType === AuditEvent_ActorType.NONE ? "nobody authenticated" : event.actor;
  const fields = event.changedFields.length > 0 ? ` [${event.changedFields.join(", ")}]` : "";
  // A failed authentication's event counts its address's failures in one window (docs/audit-log.md).
  const count = event.callCount > 1 ? `, ${event.callCount} calls` : "";
  return `${when} ${outcome} ${event.method} ${event.resource || "-"}${fields} by ${who} from ${event.address} (request ${event.requestId}${count})`;
}
