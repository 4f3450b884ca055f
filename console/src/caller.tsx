import type { Caller } from "@encore-campaigns/client";
import { createContext, type ReactNode, useContext } from "react";

// Who is signed in (AccountService.GetCaller): the account every page lists under, and the
// permissions its role holds. A control whose call the role may not make is left out rather
// than shown and refused (the API would answer NOT_FOUND, spec 5.3).

export interface CallerView {
  account: string;
  role: Caller["role"];
  /** The API key or member signed in (its resource name), as the audit log names actors. */
  self: string;
  can(permission: string): boolean;
}

const CallerContext = createContext<CallerView | undefined>(undefined);

export function CallerProvider({ caller, children }: { caller: Caller; children: ReactNode }) {
  const held = new Set(caller.permissions);
  const view: CallerView = {
    account: caller.account,
    role: caller.role,
    self: caller.apiKey || caller.member,
    can: (permission) => held.has(permission),
  };
  return <CallerContext.Provider value={view}>{children}</CallerContext.Provider>;
}

export function useCaller(): CallerView {
  const caller = useContext(CallerContext);
  if (!caller) throw new Error("useCaller outside CallerProvider");
  return caller;
}
