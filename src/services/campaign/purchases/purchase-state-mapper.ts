import { Purchase_State } from "../../../../gen/encore/campaign/v1/purchase_pb.js";
import type { PurchaseState } from "../../../domain/purchase-state.js";

const states: Record<PurchaseState, Purchase_State> = {
  INITIATED: Purchase_State.INITIATED,
  AUTHORIZED: Purchase_State.AUTHORIZED,
  CREDITED: Purchase_State.CREDITED,
  CANCELLED: Purchase_State.CANCELLED,
  FAILED: Purchase_State.FAILED,
  ABANDONED: Purchase_State.ABANDONED,
};

export function toPurchaseState(state: PurchaseState): Purchase_State {
  return states[state];
}
