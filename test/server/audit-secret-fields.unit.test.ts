import { readdirSync } from "node:fs";
import { create, type DescField, type DescMessage, type DescService, type Message } from "@bufbuild/protobuf";
import { isReflectList, reflect } from "@bufbuild/protobuf/reflect";
import { describe, expect, it } from "vitest";
import { isWriteMethod } from "../../src/server/audit/audited-methods.js";
import { redactedRequest } from "../../src/server/audit/describe-request.js";
import {
  fieldFullName,
  isOutputOnly,
  isSecretField,
  NOT_SECRET,
  SECRET_FIELDS,
} from "../../src/server/audit/secret-fields.js";

// No secret in an audit event. This walks every request message of every service in
// gen/encore (a service added later is walked without an edit here), with a list of words
// broader than the one the service redacts by: every field whose name has one of them must be
// redacted, dropped as output only, or named in NOT_SECRET with a reason. Then every request
// message of every write is filled with a distinct value in each string field, and its record
// must hold exactly the values that are not secrets.

const SUSPICIOUS = /key|secret|token|passw|credential|signature|pem|private|hmac|salt|otp|cert|auth/;

const services: DescService[] = [];
const root = new URL("../../gen/encore/", import.meta.url);
for (const path of readdirSync(root, { recursive: true, encoding: "utf8" })
  .filter((p) => p.endsWith("_pb.ts"))
  .sort()) {
  const module = (await import(new URL(path, root).href)) as Record<string, unknown>;
  for (const value of Object.values(module)) {
    if (typeof value === "object" && value !== null && (value as { kind?: string }).kind === "service") {
      services.push(value as DescService);
    }
  }
}

/** Every field reachable from `message` through our own (encore.*) messages. */
function walk(message: DescMessage, seen = new Set<string>()): DescField[] {
  if (seen.has(message.typeName)) return [];
  seen.add(message.typeName);
  return message.fields.flatMap((field) => [
    field,
    ...(field.message?.typeName.startsWith("encore.") ? walk(field.message, seen) : []),
  ]);
}

const requestFields = [
  ...new Map(
    services
      .flatMap((service) => service.methods.flatMap((method) => walk(method.input)))
      .map((f) => [fieldFullName(f), f]),
  ).values(),
];

describe("secret fields of request messages", () => {
  it("finds every service and request field", () => {
    expect(services.map((service) => service.typeName)).toEqual(
      expect.arrayContaining(["encore.campaign.v1.CampaignService", "encore.audit.v1.AuditService"]),
    );
    expect(requestFields.length).toBeGreaterThan(100);
  });

  it("redacts, drops or deliberately keeps every field whose name looks like a secret", () => {
    const undecided = requestFields
      .filter((field) => SUSPICIOUS.test(field.name))
      .filter((field) => !isSecretField(field) && !isOutputOnly(field))
      .map(fieldFullName)
      .filter((name) => !(name in NOT_SECRET) && !(`*.${name.split(".").pop()}` in NOT_SECRET));
    expect(undecided, "add each to SECRET_FIELDS, or to NOT_SECRET with why").toEqual([]);
  });

  it("names only fields that exist in its tables", () => {
    const names = new Set(requestFields.map(fieldFullName));
    const bare = new Set(requestFields.map((field) => `*.${field.name}`));
    for (const name of [...SECRET_FIELDS, ...Object.keys(NOT_SECRET)]) {
      expect(name.startsWith("*.") ? bare.has(name) : names.has(name), name).toBe(true);
    }
  });

  it("redacts the secrets the API takes today", () => {
    const byName = new Map(requestFields.map((field) => [fieldFullName(field), field]));
    for (const name of [
      "encore.campaign.v1.DistributorLink.Steam.publisher_key",
      "encore.account.v1.ApiKey.key_string",
    ]) {
      const field = byName.get(name);
      expect(field, name).toBeDefined();
      expect(field && (isSecretField(field) || isOutputOnly(field)), name).toBe(true);
    }
  });

  it("records every value of every write's request but the secret and output-only ones", () => {
    let checked = 0;
    for (const method of services.flatMap((service) => service.methods).filter(isWriteMethod)) {
      const values = new Map<string, boolean>();
      const message = fill(method.input, values, new Set());
      const json = JSON.stringify(redactedRequest(method.input, message));
      for (const [value, kept] of values) {
        expect(json.includes(value), `${method.parent.typeName}/${method.name}: ${value}`).toBe(kept);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});

/**
 * A message with a distinct value in each string field (the first of each oneof), recursing
 * into our own messages; `values` maps each value to whether the record should keep it.
 */
function fill(desc: DescMessage, values: Map<string, boolean>, path: Set<string>, keep = true): Message {
  const message = create(desc);
  const target = reflect(desc, message);
  const filledOneofs = new Set<string>();
  for (const field of desc.fields) {
    if (field.oneof) {
      if (filledOneofs.has(field.oneof.name)) continue;
      filledOneofs.add(field.oneof.name);
    }
    const kept = keep && !isSecretField(field) && !isOutputOnly(field);
    const value = `v-${fieldFullName(field)}`;
    if (field.fieldKind === "scalar" && typeof target.get(field) === "string") {
      target.set(field, value);
      values.set(value, kept);
    } else if (field.fieldKind === "list" && field.listKind === "scalar" && field.scalar === 9) {
      const list = target.get(field);
      if (isReflectList(list)) list.add(value);
      values.set(value, kept);
    } else if (
      field.fieldKind === "message" &&
      field.message.typeName.startsWith("encore.") &&
      !path.has(field.message.typeName)
    ) {
      const inner = fill(field.message, values, new Set([...path, desc.typeName]), kept);
      target.set(field, reflect(field.message, inner));
    }
  }
  return message;
}
