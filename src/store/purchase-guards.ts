import { Prisma } from "../../gen/prisma/client.js";
import { MOVES_INTO, OPEN_STATES, type PurchaseState, START_STATE, UNPAID_ENDS } from "../domain/purchase-state.js";

// The purchase state machine's guards as SQL: every statement that reads or writes a purchase's
// state names it in the words of domain/purchase-state.ts, never as a string of its own.

/** A state as a value of the column's type. */
export function stateValue(state: PurchaseState): Prisma.Sql {
  return Prisma.sql`${state}::"PurchaseState"`;
}

function stateIn(column: string, states: readonly PurchaseState[]): Prisma.Sql {
  return Prisma.sql`${Prisma.raw(column)} IN (${Prisma.join(states.map(stateValue))})`;
}

/** `column` holds a state from which the purchase may move into `to`. */
export function mayMoveInto(to: PurchaseState, column = "state"): Prisma.Sql {
  return stateIn(column, MOVES_INTO[to]);
}

/** `column` holds a state the purchase can still leave. */
export function isOpen(column = "state"): Prisma.Sql {
  return stateIn(column, OPEN_STATES);
}

/** `column` holds the state begin wrote: nobody has seen the order approved. */
export function isStarted(column = "state"): Prisma.Sql {
  return stateIn(column, [START_STATE]);
}

/** `column` holds a final state reached without payment. */
export function endedUnpaid(column = "state"): Prisma.Sql {
  return stateIn(column, UNPAID_ENDS);
}
