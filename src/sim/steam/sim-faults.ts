// Faults injected through the control API, consumed one per matching call.

import type { SimFault, SimState, SteamCallName } from "./sim-state.js";

/** Takes the first armed fault for this call (or for "*"), counting it down. */
export function takeFault(state: SimState, call: SteamCallName): SimFault | undefined {
  const fault = state.faults.find((f) => f.call === call || f.call === "*");
  if (fault === undefined) return undefined;
  fault.remaining -= 1;
  if (fault.remaining <= 0) state.faults.splice(state.faults.indexOf(fault), 1);
  return fault;
}
