import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  type Account,
  AccountSchema,
  type ApiKey,
  ApiKeySchema,
  type Member,
  MemberSchema,
  Role as ProtoRole,
} from "../../../gen/encore/account/v1/account_service_pb.js";
import type { Role } from "../../domain/permissions.js";
import { resources } from "../../domain/resource-names.js";
import { invalidArgument } from "../../errors/status.js";
import type { AccountRow } from "../../store/accounts.js";
import type { ApiKeyRow } from "../../store/api-keys.js";
import type { MemberRow } from "../../store/members.js";

const toProto: Record<Role, ProtoRole> = {
  OWNER: ProtoRole.OWNER,
  ADMIN: ProtoRole.ADMIN,
  BILLING: ProtoRole.BILLING,
  VIEWER: ProtoRole.VIEWER,
};

export function toProtoRole(role: Role): ProtoRole {
  return toProto[role];
}

const fromProto = new Map(Object.entries(toProto).map(([role, proto]) => [proto, role as Role]));

/** The domain role of a request's role; ROLE_UNSPECIFIED (or an unknown number) is refused. */
export function readRole(role: ProtoRole, field: string): Role {
  const read = fromProto.get(role);
  if (read === undefined) {
    throw invalidArgument(`"${field}" must be ROLE_OWNER, ROLE_ADMIN, ROLE_BILLING or ROLE_VIEWER.`);
  }
  return read;
}

export function toAccount(row: AccountRow): Account {
  return create(AccountSchema, {
    name: resources.account.format({ accountId: row.id }),
    displayName: row.displayName,
    createTime: timestampFromDate(row.createTime),
  });
}

/** An API key; `keyString` only in the response that created it (the secret is not stored). */
export function toApiKey(row: ApiKeyRow, keyString = ""): ApiKey {
  return create(ApiKeySchema, {
    name: resources.apiKey.format({ accountId: row.accountId, apiKeyId: row.id }),
    displayName: row.displayName,
    role: toProtoRole(row.role),
    keyString,
    keyPrefix: row.keyPrefix,
    createTime: timestampFromDate(row.createTime),
  });
}

export function toMember(row: MemberRow): Member {
  return create(MemberSchema, {
    name: resources.member.format({ accountId: row.accountId, memberId: row.id }),
    email: row.email,
    role: toProtoRole(row.role),
    createTime: timestampFromDate(row.createTime),
  });
}
