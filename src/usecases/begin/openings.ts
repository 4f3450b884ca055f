/**
 * How a begin's InitTxn ended (reference 3.5): the order opened (a web order with its approval
 * page), the platform refused it (its error code), or nobody answered (the order may or may not exist).
 */
export type InitTxnEnd =
  | { kind: "opened"; transId: string; steamUrl?: string }
  | { kind: "refused"; code: string }
  | { kind: "unanswered"; cause: string };

/**
 * The InitTxn calls this process is making, by purchase: a begin repeated with the same
 * requestId while its first attempt's InitTxn runs here awaits how that one ends and is answered
 * the same, without asking the platform again (docs/settlement.md "A begin repeated").
 */
export interface Openings {
  /** Marks the order of `purchaseId` as being opened here; call what it returns once it ended. */
  start(purchaseId: string): (end: InitTxnEnd) => void;
  /** How the InitTxn of `purchaseId` ends, when this process is making it. */
  endOf(purchaseId: string): Promise<InitTxnEnd> | undefined;
}

export function createOpenings(): Openings {
  const running = new Map<string, Promise<InitTxnEnd>>();
  return {
    start(purchaseId) {
      let ended: (end: InitTxnEnd) => void = () => {};
      running.set(
        purchaseId,
        new Promise((resolve) => {
          ended = resolve;
        }),
      );
      return (end) => {
        running.delete(purchaseId);
        ended(end);
      };
    },
    endOf: (purchaseId) => running.get(purchaseId),
  };
}
