import { execFile } from "node:child_process";
import { promisify } from "node:util";

// A WebAssembly function that counts its argument down to zero: one call of spin(n) runs about
// 10n bytes of its code, which is what V8's tier-up budget (--wasm-tiering-budget) counts.
// (func (export "spin") (param i32) (result i32)
//   (loop (br_if 0 (local.tee 0 (i32.sub (local.get 0) (i32.const 1))))) (local.get 0))
// biome-ignore format: one line for each section of the module
const SPIN_MODULE = [
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version
  0x01, 0x06, 0x01, 0x60, 0x01, 0x7f, 0x01, 0x7f, // type: (i32) -> i32
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x07, 0x08, 0x01, 0x04, 0x73, 0x70, 0x69, 0x6e, 0x00, 0x00, // export "spin"
  0x0a, 0x12, 0x01, 0x10, 0x00, 0x03, 0x40, 0x20, 0x00, 0x41, 0x01, 0x6b, 0x22, 0x00, 0x0d, 0x00, 0x0b, 0x20, 0x00, 0x0b,
];

// Run by a node of its own under --allow-natives-syntax: V8's test natives say which compiler's
// code the function runs. It runs spin `calls` times for about 1 MB of code each (V8's default
// budget is 1.8 MB), then waits up to `withinMs` for TurboFan: the recompilation runs on a
// background thread, which a busy machine may start late, so a "no" is only given after it.
const probe = (calls: number, withinMs: number) => `
const { instance } = await WebAssembly.instantiate(new Uint8Array(${JSON.stringify(SPIN_MODULE)}));
const spin = instance.exports.spin;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
for (let call = 0; call < ${calls}; call++) {
  spin(100000);
  await sleep(0);
}
const deadline = performance.now() + ${withinMs};
while (!%IsTurboFanFunction(spin) && performance.now() < deadline) await sleep(10);
process.stdout.write(String(%IsTurboFanFunction(spin)));
`;

/**
 * Whether a node started with `nodeOptions` recompiles a WebAssembly function with TurboFan once
 * it has run `calls` MB of its code: what --wasm-tiering-budget decides (docs/performance.md,
 * "Memory").
 */
export async function tiersUpUnder(nodeOptions: string[], calls = 30, withinMs = 1_000): Promise<boolean> {
  const args = [...nodeOptions, "--allow-natives-syntax", "--input-type=module", "-e", probe(calls, withinMs)];
  const { stdout } = await promisify(execFile)(process.execPath, args);
  if (stdout !== "true" && stdout !== "false") throw new Error(`the tier probe answered ${JSON.stringify(stdout)}`);
  return stdout === "true";
}
