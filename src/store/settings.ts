import type { OperatorSettings } from "../../gen/prisma/client.js";
import type { DbClient } from "./db-client.js";

/** The operator's settings are one row, this id, inserted by the first migration. */
export const SETTINGS_ID = 1;

export type SettingsRow = Omit<OperatorSettings, "id">;

export function readSettings(db: DbClient): Promise<SettingsRow> {
  return db.operatorSettings.findUniqueOrThrow({ where: { id: SETTINGS_ID }, omit: { id: true } });
}

export type SettingsChange = Partial<SettingsRow> & Pick<SettingsRow, "updateTime">;

export function updateSettings(db: DbClient, change: SettingsChange): Promise<SettingsRow> {
  return db.operatorSettings.update({ where: { id: SETTINGS_ID }, data: change, omit: { id: true } });
}
