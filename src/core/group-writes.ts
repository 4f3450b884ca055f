/**
 * Group commit for a write that many concurrent callers make, one item each: an item arriving
 * while no write is in flight is written at once, alone; items arriving while one is in flight
 * wait for it and are then written together, in one call of `write`. An idle service writes as
 * before, and a busy one sends one statement for the items of a round trip (docs/performance.md
 * "Concurrent InitTxn ends in one statement"). Each caller's promise settles with the write of
 * its own batch. A batch holds at most `maxItems`; a full one is written beside the one in flight.
 */
export function groupWrites<Item>(
  write: (items: Item[]) => Promise<void>,
  maxItems = 256,
): (item: Item) => Promise<void> {
  let next: Batch<Item> | undefined;
  let inFlight = 0;

  function send(batch: Batch<Item>): void {
    if (next === batch) next = undefined;
    inFlight++;
    const written = write(batch.items);
    batch.settle(written);
    const after = () => {
      inFlight--;
      if (inFlight === 0 && next) send(next);
    };
    written.then(after, after);
  }

  return (item) => {
    next ??= newBatch<Item>();
    const batch = next;
    batch.items.push(item);
    if (inFlight === 0 || batch.items.length >= maxItems) send(batch);
    return batch.written;
  };
}

interface Batch<Item> {
  items: Item[];
  written: Promise<void>;
  /** Settles `written` as the batch's write does. */
  settle(write: Promise<void>): void;
}

function newBatch<Item>(): Batch<Item> {
  let settle: (write: Promise<void>) => void = () => {};
  const written = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { items: [], written, settle };
}
