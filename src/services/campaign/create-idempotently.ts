import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import type { ServiceDeps } from "../../core/deps.js";
import { createOnce, type Idempotency, readIdempotency } from "../create-once.js";

export interface IdempotentCreate<Desc extends DescMessage, Row> {
  schema: Desc;
  request: MessageShape<Desc> & { requestId: string };
  /** Names the resource in ALREADY_EXISTS. */
  resource: string;
  findEarlier(requestId: string): Promise<(Row & { requestHash: string | null }) | null>;
  /** Does the work and stores the row with the request's idempotency. */
  create(idempotency: Idempotency): Promise<Row>;
}

/** A create made once per `request_id` (AIP-155): a retry is answered with the first row, nothing redone. */
export function createIdempotently<Desc extends DescMessage, Row>(
  deps: Pick<ServiceDeps, "masterKeys">,
  options: IdempotentCreate<Desc, Row>,
): Promise<Row> {
  const idempotency = readIdempotency(deps.masterKeys, options.schema, options.request);
  return createOnce({
    idempotency,
    resource: options.resource,
    findEarlier: options.findEarlier,
    create: () => options.create(idempotency),
  });
}
