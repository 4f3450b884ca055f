import v8 from "node:v8";

// A WebAssembly function that counts its argument down to zero: one call of spin(n) runs about
// 10n bytes of its code, which is what V8's tier-up budget counts.
// (func (export "spin") (param i32) (result i32)
//   (loop (br_if 0 (local.tee 0 (i32.sub (local.get 0) (i32.const 1))))) (local.get 0))
// biome-ignore format: one line for each section of the module
const SPIN_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00, // export "spin"
  0x0a, 0x12, 0x01, 0x10, 0x00, 0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x00, 0x0b,
]);

export const V8_DEFAULT_TIERING_BUDGET = 1_800_000;

type Probe = (f: unknown) => boolean;

// V8's own test natives say which compiler's code a WebAssembly function runs now; they are
// compiled while the flag is on, and the flag is put back at once.
function natives(): { isTurboFan: Probe } {
  v8.setFlagsFromString("--allow-natives-syntax");
  try {
    return { isTurboFan: new Function("f", "return %IsTurboFanFunction(f)") as Probe };
  } finally {
    v8.setFlagsFromString("--no-allow-natives-syntax");
  }
}

// V8 shares a compiled module between compiles of the same bytes: each probe is a module of its
// own, told apart by a custom section (which V8 does not read; its size, under 128, is one byte).
let probes = 0;
function freshModule(): Uint8Array {
  probes += 1;
  const nonce = new TextEncoder().encode(`probe ${process.pid} ${probes}`);
  return new Uint8Array([...SPIN_MODULE, 0x00, nonce.length + 1, 0x00, ...nonce]);
}

// The project's lib (ES2023) declares no WebAssembly; node has it.
interface WebAssemblyApi {
  instantiate(bytes: Uint8Array): Promise<{ instance: { exports: Record<string, unknown> } }>;
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Compiles a fresh module under the budget in force now, runs its function `calls` times for
 * about 1 MB of code each (V8's default budget is 1.8 MB), and says whether V8 has put it on
 * TurboFan within `withinMs` of the last call: the recompilation runs on a background thread,
 * which a busy machine may start late, so a "no" is only given after the whole window.
 */
export async function tiersUpAfter(calls: number, withinMs = 1_000): Promise<boolean> {
  const { isTurboFan } = natives();
  const { instance } = await wasm.instantiate(freshModule());
  const spin = instance.exports.spin as (n: number) => number;
  for (let call = 0; call < calls; call++) {
    spin(100_000);
    await sleep(0);
  }
  const deadline = performance.now() + withinMs;
  while (!isTurboFan(spin)) {
    if (performance.now() >= deadline) return false;
    await sleep(10);
  }
  return true;
}
