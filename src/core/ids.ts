import { randomBytes } from "node:crypto";

/**
 * A server-generated resource id: url-safe lowercase hex, the creation time (ms, 12 digits)
 * followed by 64 random bits. Ids therefore sort in creation order, which lets lists page by
 * id alone (timestamps in the database carry microseconds a JS Date cannot hold).
 */
export function newId(now: Date): string {
  return `${now.getTime().toString(16).padStart(12, "0")}${randomBytes(8).toString("hex")}`;
}
