import { type DescField, getOption, hasOption } from "@bufbuild/protobuf";
import { FieldBehavior, field_behavior } from "../../../gen/google/api/field_behavior_pb.js";

// An audit event never holds a secret. A request field's value is left out of the
// record when any of these says it may be one, so a new secret field is left out by default:
// - it is INPUT_ONLY (a value the service takes and never returns: publisher keys);
// - its name has a word secrets are named with (publisher_key, api_key, signing_secret, token);
// - it is named in SECRET_FIELDS (a secret whose name says nothing).
// NOT_SECRET lists the fields whose names match but whose values are deliberately recorded,
// each with why. test/server/audit-secret-fields.unit.test.ts walks every request message.

const SECRET_WORDS =
  /(^|_)(key|keys|secret|secrets|token|tokens|password|passphrase|credential|credentials|signature|pem)(_|$)/;

/** Secrets whose names have none of SECRET_WORDS, by full proto name. */
export const SECRET_FIELDS: ReadonlySet<string> = new Set<string>([
  // The player's platform session ticket (spec 4.1); public calls are not audited, but a
  // ticket is a credential wherever it would be recorded.
  "encore.campaign.v1.BeginPurchaseRequest.auth_ticket",
]);

/** Fields whose names match SECRET_WORDS but hold no secret: full proto name, or `*.` and a field name. */
export const NOT_SECRET: Readonly<Record<string, string>> = {
  // A message of role and display name; its key_string is output only, left out anyway.
  "encore.account.v1.CreateApiKeyRequest.api_key": "the new key's settings, not its secret",
  // Whether the player approved the order in the overlay: a flag.
  "encore.campaign.v1.CompletePurchaseRequest.authorized": "a flag, not a credential",
  // A list position signed by the service; it grants nothing the caller cannot read anyway.
  "*.page_token": "a position in a list",
};

/** The field's full proto name, e.g. `encore.campaign.v1.DistributorLink.Steam.publisher_key`. */
export function fieldFullName(field: DescField): string {
  return `${field.parent.typeName}.${field.name}`;
}

/** Whether the value of `field` is kept out of every audit event. */
export function isSecretField(field: DescField): boolean {
  const fullName = fieldFullName(field);
  if (SECRET_FIELDS.has(fullName) || hasBehavior(field, FieldBehavior.INPUT_ONLY)) return true;
  if (fullName in NOT_SECRET || `*.${field.name}` in NOT_SECRET) return false;
  return SECRET_WORDS.test(field.name);
}

/** Output-only fields are ignored by the service when sent, so they are not recorded either. */
export function isOutputOnly(field: DescField): boolean {
  return hasBehavior(field, FieldBehavior.OUTPUT_ONLY);
}

function hasBehavior(field: DescField, behavior: FieldBehavior): boolean {
  return hasOption(field, field_behavior) && getOption(field, field_behavior).includes(behavior);
}
