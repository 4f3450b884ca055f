import { createHmac } from "node:crypto";
import { type DescMessage, type MessageShape, toBinary } from "@bufbuild/protobuf";
import type { MasterKeys } from "../core/secret-box.js";
import { readRequestId } from "../domain/request-id.js";
import { alreadyExists } from "../errors/status.js";
import { violates } from "../store/constraint-violation.js";

/** What a create stores to be idempotent (AIP-155); both null without a request_id. */
export interface Idempotency {
  requestId: string | null;
  /** HMAC of the whole request: a retry has the same, a reuse of the id for another body not. */
  requestHash: string | null;
  /**
   * The hashes a retry of this request may have stored: under the current master key, and
   * during a rotation under the previous one (a create made before it is still a retry).
   */
  acceptedHashes: string[];
}

/** The columns a create stores: its request id, and its hash under the current master key. */
export function idempotencyColumns({
  requestId,
  requestHash,
}: Idempotency): Pick<Idempotency, "requestId" | "requestHash"> {
  return { requestId, requestHash };
}

/**
 * Reads the request's `requestId` and hashes the request. The hash is keyed with the master
 * key because a link's request carries its publisher key, which is never stored in the clear.
 */
export function readIdempotency<Desc extends DescMessage>(
  masterKeys: MasterKeys,
  schema: Desc,
  request: MessageShape<Desc> & { requestId: string },
): Idempotency {
  const requestId = readRequestId(request.requestId) ?? null;
  if (requestId === null) return { requestId, requestHash: null, acceptedHashes: [] };
  const bytes = toBinary(schema, request, { writeUnknownFields: false });
  const hash = (key: Buffer) => createHmac("sha256", key).update(bytes).digest("base64url");
  const requestHash = hash(masterKeys.current);
  return {
    requestId,
    requestHash,
    acceptedHashes: [requestHash, ...(masterKeys.previous ? [hash(masterKeys.previous)] : [])],
  };
}

export interface CreateOnce<Row> {
  idempotency: Idempotency;
  /** The row a create with this request id made before, with its request's hash. */
  findEarlier(requestId: string): Promise<(Row & { requestHash: string | null }) | null>;
  /** Does the work (platform calls included) and inserts the row with `idempotency`. */
  create(): Promise<Row>;
  /** Names the resource in ALREADY_EXISTS, e.g. "distributor link". */
  resource: string;
}

/**
 * AIP-155: a retried create gets the row first created, with no second platform call or row;
 * the same request id with a different request is ALREADY_EXISTS. Two concurrent creates are
 * decided by the unique index on the request id: the loser answers with the winner's row.
 * Any other unique violation is rethrown for the caller to name.
 */
export async function createOnce<Row>(options: CreateOnce<Row>): Promise<Row> {
  const { requestId } = options.idempotency;
  if (requestId === null) return options.create();
  const earlier = await options.findEarlier(requestId);
  if (earlier) return replay(options, earlier);
  try {
    return await options.create();
  } catch (error) {
    if (!violates(error, "unique")) throw error;
    const winner = await options.findEarlier(requestId);
    if (!winner) throw error;
    return replay(options, winner);
  }
}

function replay<Row>(options: CreateOnce<Row>, earlier: Row & { requestHash: string | null }): Row {
  if (earlier.requestHash === null || !options.idempotency.acceptedHashes.includes(earlier.requestHash)) {
    throw alreadyExists(`"requestId" was already used to create a different ${options.resource}.`);
  }
  return earlier;
}
