// The error table (docs/errors.md) and the role table (docs/roles.md) are produced from the code, so
// they cannot drift: `npx tsx scripts/doc-tables.ts --write` rewrites them; test/docs/doc-tables.unit.test.ts
// checks them.
import { readFileSync, writeFileSync } from "node:fs";
import { Code } from "@connectrpc/connect";
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { permissionTable, type Role, roleNames } from "../src/domain/permissions.js";
import { reasons } from "../src/errors/reasons.js";

/** Each generated table: the file it is written in, between `<!-- name:begin -->` and `<!-- name:end -->`. */
export const generatedTables = [
  { file: "docs/errors.md", name: "errors", render: errorTable },
  { file: "docs/roles.md", name: "roles", render: roleTable },
] as const;

const codeName = (code: Code) => Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();
const row = (cells: (string | number)[]) => `| ${cells.join(" | ")} |`;

const publicReasons = new Set([
  "CAMPAIGN_NOT_VERIFIED",
  "CAMPAIGN_NOT_READY",
  "PUBLISHER_UNAVAILABLE",
  "PUBLISHER_LIMIT_REACHED",
  "OFFER_INACTIVE",
  "ORDER_REFUSED",
  "PLAYER_NOT_AUTHENTICATED",
]);

// Refusals without a reason (spec 7 "none", and the management names that are codes).
const unnamed: [Code, string][] = [
  [
    Code.InvalidArgument,
    "a required field missing, a body that is not JSON or over 64 KiB, a request id too long, a bad value",
  ],
  [Code.NotFound, "no such campaign, purchase or resource, or one the caller may not see (spec 5.3)"],
  [Code.AlreadyExists, "a request id already used by a different player; a duplicate member"],
  [Code.ResourceExhausted, "rate limited; nothing was done"],
  [Code.Unavailable, "the platform (or the database) is not answering; retry with backoff"],
  [Code.Unauthenticated, "a management call without a valid credential"],
  [Code.Unimplemented, "a route that exists for another HTTP method"],
];

export function errorTable(): string {
  const lines = [
    row(["reason", "code", "HTTP", "PreconditionFailure", "where"]),
    row(["---", "---", "---", "---", "---"]),
  ];
  for (const [reason, { code, precondition }] of Object.entries(reasons)) {
    const where = publicReasons.has(reason) ? "public calls" : "management and operator calls";
    lines.push(
      row([`\`${reason}\``, `${code} ${codeName(code)}`, codeToHttpStatus(code), precondition ? "yes" : "no", where]),
    );
  }
  for (const [code, meaning] of unnamed) {
    lines.push(row(["(none)", `${code} ${codeName(code)}`, codeToHttpStatus(code), "no", meaning]));
  }
  return lines.join("\n");
}

export function roleTable(): string {
  const roles = Object.keys(roleNames) as Role[];
  const lines = [
    row(["permission", ...roles.map((r) => `\`${roleNames[r]}\``)]),
    row(["---", ...roles.map(() => "---")]),
  ];
  for (const [permission, holders] of Object.entries(permissionTable)) {
    lines.push(
      row([`\`${permission}\``, ...roles.map((r) => ((holders as readonly Role[]).includes(r) ? "yes" : ""))]),
    );
  }
  return lines.join("\n");
}

export function replaceBetween(text: string, name: string, body: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`no ${name} markers`);
  return `${text.slice(0, from + begin.length)}\n${body}\n${text.slice(to)}`;
}

if (process.argv.includes("--write")) {
  for (const { file, name, render } of generatedTables) {
    const url = new URL(`../${file}`, import.meta.url);
    writeFileSync(url, replaceBetween(readFileSync(url, "utf8"), name, render()));
  }
}
