import type { Db } from "./open-database.js";
import { SETTINGS_ID } from "./settings.js";

/** The browser origins the operator allowed (spec 8 CORS); none when the settings row is missing. */
export async function readAllowedOrigins(db: Db): Promise<string[]> {
  const settings = await db.operatorSettings.findUnique({
    where: { id: SETTINGS_ID },
    select: { allowedOrigins: true },
  });
  return settings?.allowedOrigins ?? [];
}
