import { Prisma } from "../../gen/prisma/client.js";
import { MOVES_INTO, OPEN_STATES, type PurchaseState } from "../domain/purchase-state.js";

// The purchase state machine's guards as SQL: every conditional update of a purchase's state
// says which states it may start from in the words of domain/purchase-state.ts.

function stateIn(column: string, states: readonly PurchaseState[]): Prisma.Sql {
  const listed = Prisma.join(states.map((state) => Prisma.sql`${state}::"PurchaseState"`));
  return Prisma.sql`${Prisma.raw(column)} IN (${listed})`;
}

/** `column` holds a state from which the purchase may move into `to`. */
export function mayMoveInto(to: PurchaseState, column = "state"): Prisma.Sql {
  return stateIn(column, MOVES_INTO[to]);
}

/** `column` holds a state the purchase can still leave. */
export function isOpen(column = "state"): Prisma.Sql {
  return stateIn(column, OPEN_STATES);
}
