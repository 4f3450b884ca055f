import { AccountService, Role } from "../../gen/encore/account/v1/account_service_pb.js";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { TEST_OPERATOR_TOKEN, type TestServer } from "../support/test-server.js";

export interface TestAccount {
  name: string;
  accountId: string;
  ownerKey: string;
}

/** A fresh account through the operator, with its first owner key. */
export async function createAccount(server: TestServer, displayName = "Studio"): Promise<TestAccount> {
  const operator = server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const created = await operator.createAccount({ displayName });
  const name = created.account?.name ?? "";
  return { name, accountId: name.split("/")[1] ?? "", ownerKey: created.apiKey?.keyString ?? "" };
}

/** A key of the account with `role`, created by its owner. */
export async function createKey(server: TestServer, account: TestAccount, role: Role): Promise<string> {
  const owner = server.client(AccountService, "connect", account.ownerKey);
  const key = await owner.createApiKey({ parent: account.name, apiKey: { role, displayName: Role[role] } });
  return key.keyString;
}

/** A member of the account and a session acting as them. */
export async function createMemberSession(
  server: TestServer,
  account: TestAccount,
  options: { email: string; role: Role; ttlSeconds?: bigint },
): Promise<{ member: string; token: string }> {
  const owner = server.client(AccountService, "connect", account.ownerKey);
  const member = await owner.createMember({
    parent: account.name,
    member: { email: options.email, role: options.role },
  });
  const operator = server.client(OperatorService, "connect", TEST_OPERATOR_TOKEN);
  const session = await operator.createSession({ member: member.name, ttlSeconds: options.ttlSeconds ?? 0n });
  return { member: member.name, token: session.token };
}
