import { Prisma } from "../../gen/prisma/client.js";
import type { SpendWindow } from "../domain/funding.js";

/** `column` within the window, bounds included (domain/funding.ts spendWindow). */
export function withinWindow(column: string, window: SpendWindow): Prisma.Sql {
  const at = Prisma.raw(column);
  return Prisma.sql`${at} >= ${window.since} AND ${at} <= ${window.until}`;
}
