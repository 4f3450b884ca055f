import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface LocalSecrets {
  masterKey: Buffer;
  operatorToken: string;
  /** True when this call created them (start-up prints the operator token once then). */
  created: boolean;
}

/**
 * With the embedded database, the master key and the operator token are generated once and
 * kept beside the data (DESIGN 4), so `npm start` needs no setup. Mode 0600: they are secrets.
 */
export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, "secrets.json");
  try {
    const saved = JSON.parse(readFileSync(file, "utf8")) as { masterKey: string; operatorToken: string };
    return { masterKey: Buffer.from(saved.masterKey, "base64"), operatorToken: saved.operatorToken, created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const secrets = {
    masterKey: randomBytes(32).toString("base64"),
    operatorToken: randomBytes(32).toString("base64url"),
  };
  writeFileSync(file, JSON.stringify(secrets), { mode: 0o600, flag: "wx" });
  return { masterKey: Buffer.from(secrets.masterKey, "base64"), operatorToken: secrets.operatorToken, created: true };
}
