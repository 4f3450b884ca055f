import type { DbClient } from "./db-client.js";

/** The operator's settings are one row, this id, inserted by the first migration. */
export const SETTINGS_ID = 1;

export interface SettingsRow {
  defaultOutstandingLimitNanos: bigint;
  allowedOrigins: string[];
  updateTime: Date;
}

const settingsColumns = { defaultOutstandingLimitNanos: true, allowedOrigins: true, updateTime: true } as const;

export function readSettings(db: DbClient): Promise<SettingsRow> {
  return db.operatorSettings.findUniqueOrThrow({ where: { id: SETTINGS_ID }, select: settingsColumns });
}

export interface SettingsChange {
  defaultOutstandingLimitNanos?: bigint;
  allowedOrigins?: string[];
  updateTime: Date;
}

export function updateSettings(db: DbClient, change: SettingsChange): Promise<SettingsRow> {
  return db.operatorSettings.update({ where: { id: SETTINGS_ID }, data: change, select: settingsColumns });
}
