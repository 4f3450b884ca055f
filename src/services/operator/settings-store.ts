import type { OperatorSettings } from "../../../gen/prisma/client.js";
import type { Db } from "../../store/open-database.js";

// The settings are one row, id 1, inserted by the first migration.
const SETTINGS_ID = 1;

export function readSettings(db: Db): Promise<OperatorSettings> {
  return db.operatorSettings.findUniqueOrThrow({ where: { id: SETTINGS_ID } });
}

export interface SettingsChange {
  defaultOutstandingLimitNanos?: bigint;
  allowedOrigins?: string[];
  updateTime: Date;
}

export function updateSettings(db: Db, change: SettingsChange): Promise<OperatorSettings> {
  return db.operatorSettings.update({ where: { id: SETTINGS_ID }, data: change });
}
