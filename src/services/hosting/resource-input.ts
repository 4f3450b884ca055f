import { type Resource, Resource_Kind, Resource_State } from "../../../gen/encore/hosting/v1/hosting_service_pb.js";
import { LARGEST_AMOUNT, parseUsd } from "../../domain/money.js";
import { resources } from "../../domain/resource-names.js";
import type { ResourceKind, ResourceTraits } from "../../domain/transfer-plan.js";
import { amountOutOfRange } from "../../errors/messages.js";
import { invalidArgument } from "../../errors/status.js";
import { readDisplayName } from "../display-name.js";

// What CreateResource accepts: every REQUIRED field present, enums named, a region id, the
// game (when given) named in the same account, an hourly price in USD that is not negative.

const REGION = /^[a-z][a-z0-9-]{0,62}$/;

/** The game's id (gameId), when given, is checked to exist in the account by the caller. */
export interface ResourceInput extends ResourceTraits {
  displayName: string;
  hourlyPriceNanos: bigint;
}

const kinds: Partial<Record<Resource_Kind, ResourceKind>> = {
  [Resource_Kind.SERVER]: "SERVER",
  [Resource_Kind.DISK]: "DISK",
  [Resource_Kind.ADDRESS]: "ADDRESS",
};

export function readResourceInput(resource: Resource | undefined, accountId: string): ResourceInput {
  if (!resource) throw invalidArgument('"resource" is required.');
  const displayName = readDisplayName(resource.displayName.trim(), "resource.displayName", { required: true });
  const kind = kinds[resource.kind];
  if (!kind) throw invalidArgument('"resource.kind" must be KIND_SERVER, KIND_DISK or KIND_ADDRESS.');
  if (!REGION.test(resource.region)) throw invalidArgument('"resource.region" must be a region id such as "eu-west".');
  return {
    displayName,
    kind,
    region: resource.region,
    gameId: readGame(resource.game, accountId),
    clientFacing: resource.clientFacing,
    movable: resource.movable ?? true,
    state: resource.state === Resource_State.STOPPED ? "STOPPED" : "RUNNING",
    diskCopyable: resource.diskCopyable ?? true,
    hourlyPriceNanos: readHourlyPrice(resource),
  };
}

function readGame(game: string, accountId: string): string | null {
  if (game === "") return null;
  const parsed = resources.game.parse(game);
  if (!parsed.ok || parsed.value.accountId !== accountId) {
    throw invalidArgument(`"resource.game" must name one of this account's games: ${resources.game.pattern}.`);
  }
  return parsed.value.gameId;
}

function readHourlyPrice(resource: Resource): bigint {
  if (!resource.hourlyPrice) throw invalidArgument('"resource.hourlyPrice" is required.');
  const price = parseUsd(resource.hourlyPrice);
  if (!price.ok && price.problem === "AMOUNT_OUT_OF_RANGE") {
    throw invalidArgument(amountOutOfRange("resource.hourlyPrice", LARGEST_AMOUNT));
  }
  if (!price.ok) throw invalidArgument(`"resource.hourlyPrice" is not a valid USD amount (${price.problem}).`);
  if (price.nanos < 0n) throw invalidArgument('"resource.hourlyPrice" must not be negative.');
  return price.nanos;
}
