import { createRegistry, type Registry } from "@bufbuild/protobuf";
import { file_encore_campaign_v1_campaign } from "../../../gen/encore/campaign/v1/campaign_pb.js";
import { file_encore_campaign_v1_transfer } from "../../../gen/encore/campaign/v1/transfer_pb.js";

/**
 * The types an Operation packs in `google.protobuf.Any` (Transfer metadata, Campaign response):
 * JSON codecs (Connect JSON, REST) need them to write and read those fields.
 */
export function operationTypes(): Registry {
  return createRegistry(file_encore_campaign_v1_transfer, file_encore_campaign_v1_campaign);
}
