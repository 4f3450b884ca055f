import type { Money } from "@encore-campaigns/client";
import type { ReactNode } from "react";
import { describeError } from "../errors";
import { formatUsd } from "../money";

// Loading, empty and error states, worded the same on every page.

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {describeError(error)}
    </p>
  );
}

export function Done({ children }: { children: ReactNode }) {
  return (
    <p className="done" role="status">
      {children}
    </p>
  );
}

export function Usd({ value }: { value: Money | bigint | undefined }) {
  return <span className="money">{formatUsd(value)}</span>;
}
