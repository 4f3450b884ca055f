import { timestampDate } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import { ListAccountsResponseSchema, SessionSchema } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { resources } from "../domain/resource-names.js";
import {
  type CliEnvironment,
  commandContext,
  listCommand,
  type PagingOptions,
  pageRequest,
  parseCount,
} from "./cli-context.js";
import { emit, listLines, messageJson } from "./output.js";

/** create-account, list-accounts, create-session. */
export function addAccountCommands(program: Command, environment: CliEnvironment): void {
  program
    .command("create-account")
    .description("create an account and its first owner API key (the key is shown once)")
    .requiredOption("--display-name <name>", "the account's name for people")
    .option("--request-id <id>", "makes a retry return the same account and key")
    .action(async (options: { displayName: string; requestId?: string }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const created = await client.createAccount({
        displayName: options.displayName,
        requestId: options.requestId ?? "",
      });
      const account = created.account?.name ?? "";
      const apiKey = created.apiKey?.keyString ?? "";
      emit(output, { account, apiKey }, () => [
        `account: ${account}`,
        apiKey ? `owner API key (shown once, keep it now): ${apiKey}` : "owner API key: no longer available",
      ]);
    });

  listCommand(program, "list-accounts", "accounts")
    .description("list every account")
    .action(async (options: PagingOptions, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const page = await client.listAccounts(pageRequest(options));
      emit(output, messageJson(ListAccountsResponseSchema, page), () =>
        listLines(
          page.accounts.map((account) => `${account.name}\t${account.displayName}`),
          "no accounts",
          page.nextPageToken,
        ),
      );
    });

  program
    .command("create-session")
    .description("issue a session token for a member (shown once)")
    .requiredOption("--member <name>", resources.member.pattern)
    .option("--ttl-seconds <n>", "lifetime; default and most 43200 (12 hours)", parseCount)
    .action(async (options: { member: string; ttlSeconds?: number }, command: Command) => {
      const { client, output } = commandContext(command, environment);
      const session = await client.createSession({
        member: options.member,
        ttlSeconds: BigInt(options.ttlSeconds ?? 0),
      });
      const expires = session.expireTime ? timestampDate(session.expireTime).toISOString() : "-";
      emit(output, messageJson(SessionSchema, session), () => [
        `session for ${session.member} until ${expires} (shown once): ${session.token}`,
      ]);
    });
}
