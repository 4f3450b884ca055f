import type { Db } from "./open-database.js";

/** The browser origins the operator allowed (spec 8 CORS); none when the settings row is missing. */
export async function readAllowedOrigins(db: Db): Promise<string[]> {
  const settings = await db.operatorSettings.findUnique({ where: { id: 1 }, select: { allowedOrigins: true } });
  return settings?.allowedOrigins ?? [];
}
