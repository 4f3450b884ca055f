import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Settings, SettingsSchema } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { SettingsRow } from "../../store/settings.js";
import { toMoney } from "../money-mapper.js";

export function toSettings(row: SettingsRow): Settings {
  return create(SettingsSchema, {
    name: "settings",
    defaultOutstandingLimit: toMoney(row.defaultOutstandingLimitNanos),
    allowedOrigins: row.allowedOrigins,
    updateTime: timestampFromDate(row.updateTime),
  });
}
