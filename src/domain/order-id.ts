// Order ids are ours (reference 3.5): unique unsigned 63-bit integers, so they fit a signed
// BIGINT column and Steam's uint64 alike, and always travel as bigint or decimal string, never
// through a JS number (reference 8 pitfall 6). Uniqueness is finally held by the database
// (purchases.order_id is UNIQUE); 63 random bits make a collision practically impossible.

/** Reads 8 bytes as a big-endian integer with the top bit cleared; 0 (unset on the wire) becomes 1. */
export function orderIdFromBytes(bytes: Uint8Array): bigint {
  if (bytes.length !== 8) throw new RangeError("an order id is made of exactly 8 bytes");
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  value &= (1n << 63n) - 1n;
  return value === 0n ? 1n : value;
}

/** A fresh random order id from the platform's cryptographic source. */
export function newOrderId(random: (size: number) => Uint8Array = randomBytes): bigint {
  return orderIdFromBytes(random(8));
}

// Random bytes drawn from a pool refilled a kilobyte at a time, as node's randomUUID keeps its own:
// a call into the cryptographic source costs far more than a draw from the pool, whatever its size
// (docs/performance.md, "The query compiler from its binary, and order ids from a pool").
const POOL_BYTES = 1024;
let pool = new Uint8Array(0);
let drawn = 0;

function randomBytes(size: number): Uint8Array {
  if (drawn + size > pool.length) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    drawn = 0;
  }
  drawn += size;
  return pool.subarray(drawn - size, drawn);
}
