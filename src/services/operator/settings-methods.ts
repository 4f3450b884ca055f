import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { OperatorService, Settings } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { invalidArgument } from "../../errors/status.js";
import { readSettings, type SettingsChange, type SettingsRow, updateSettings } from "../../store/settings.js";
import { toMoney } from "../money-mapper.js";
import { requireOperator } from "../principal.js";
import { readAllowedOrigins } from "./allowed-origins.js";
import { readLimit } from "./operator-money.js";

const FIELDS = ["default_outstanding_limit", "allowed_origins"] as const;
type Field = (typeof FIELDS)[number];

type SettingsMethods = Pick<ServiceImpl<typeof OperatorService>, "getSettings" | "updateSettings">;

/** The operator's settings: the default outstanding limit and the allowed CORS origins (spec 8). */
export function createSettingsMethods(deps: ServiceDeps): SettingsMethods {
  return {
    async getSettings(_request, ctx) {
      requireOperator(ctx);
      return toSettings(await readSettings(deps.db));
    },

    /**
     * Updates the default outstanding limit (for links created afterwards; existing links keep
     * theirs) and the allowed CORS origins. With an update_mask only the named fields change
     * ("*" names both); without one, the fields the request populates (AIP-134).
     */
    async updateSettings(request, ctx) {
      requireOperator(ctx);
      const settings = request.settings;
      if (!settings) throw invalidArgument('Missing required field "settings".');
      const fields = maskedFields(request.updateMask?.paths ?? [], settings);
      const change: SettingsChange = { updateTime: deps.now() };
      if (fields.has("default_outstanding_limit")) {
        change.defaultOutstandingLimitNanos = readLimit(
          settings.defaultOutstandingLimit,
          "settings.defaultOutstandingLimit",
        );
      }
      if (fields.has("allowed_origins")) change.allowedOrigins = readAllowedOrigins(settings.allowedOrigins);
      return toSettings(await updateSettings(deps.db, change));
    },
  };
}

function maskedFields(paths: readonly string[], settings: Settings): Set<Field> {
  if (paths.length === 0) {
    const populated = new Set<Field>();
    if (settings.defaultOutstandingLimit) populated.add("default_outstanding_limit");
    if (settings.allowedOrigins.length > 0) populated.add("allowed_origins");
    return populated;
  }
  if (paths.includes("*")) return new Set(FIELDS);
  for (const path of paths) {
    if (!(FIELDS as readonly string[]).includes(path)) {
      throw invalidArgument(`"updateMask" may name default_outstanding_limit or allowed_origins, not "${path}".`);
    }
  }
  return new Set(paths as Field[]);
}

function toSettings(row: SettingsRow) {
  return {
    name: "settings",
    defaultOutstandingLimit: toMoney(row.defaultOutstandingLimitNanos),
    allowedOrigins: row.allowedOrigins,
    updateTime: timestampFromDate(row.updateTime),
  };
}
