import { createClient } from "@connectrpc/connect";
import type { Command } from "commander";
import { OperatorAuditService } from "../../gen/encore/operator/v1/operator_audit_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { type ConnectionOptions, createOperatorTransport } from "./operator-client.js";

export interface CliEnvironment {
  env: NodeJS.ProcessEnv;
  write(text: string): void;
}

/** The program's global options. */
export type GlobalOptions = ConnectionOptions & { json?: boolean };

/** The client, the audit log of every account and the output of one command, from the program's global options. */
export function commandContext(command: Command, environment: CliEnvironment) {
  const { json, ...connection } = command.optsWithGlobals<GlobalOptions>();
  const transport = createOperatorTransport(connection, environment.env);
  return {
    client: createClient(OperatorService, transport),
    audit: createClient(OperatorAuditService, transport),
    output: { json: json === true, write: environment.write },
  };
}

/** A List command, with its paging options; `rows` names what its pages hold. */
export function listCommand(program: Command, name: string, rows: string): Command {
  return program
    .command(name)
    .option("--page-size <n>", `${rows} per page`, parseCount)
    .option("--page-token <token>", "the next page (a previous page names it)");
}

export interface PagingOptions {
  pageSize?: number;
  pageToken?: string;
}

/** A List request's paging fields from the command's options (0 and "": the service's default, the first page). */
export function pageRequest(options: PagingOptions): { pageSize: number; pageToken: string } {
  return { pageSize: options.pageSize ?? 0, pageToken: options.pageToken ?? "" };
}

/** A whole number option (page sizes, lifetimes). */
export function parseCount(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text)) throw new Error(`"${text}" is not a whole number.`);
  return Number(text);
}
