import type { HandlerContext } from "@connectrpc/connect";
import type { GetSettingsRequest, Settings } from "../../../gen/encore/operator/v1/operator_service_pb.js";
import type { ServiceDeps } from "../../core/deps.js";
import { readSettings } from "../../store/settings.js";
import { requireOperator } from "../principal.js";
import { toSettings } from "./settings-mapper.js";

export function createGetSettings(deps: ServiceDeps) {
  return async (_request: GetSettingsRequest, ctx: HandlerContext): Promise<Settings> => {
    requireOperator(ctx);
    return toSettings(await readSettings(deps.db));
  };
}
