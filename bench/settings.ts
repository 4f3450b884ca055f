import { z } from "zod";

// `npm run bench`'s settings from its environment (README, Benchmarks), read and checked in this
// one place by the bench and by its target processes alike: a typo (BENCH_DURATION_S=8s) is
// refused by name instead of measuring NaN seconds, and a default is the same wherever it is
// read.

const count = (min: number) => z.coerce.number().int().min(min);

const schema = z.object({
  BENCH_CONNECTIONS: count(1).default(32),
  BENCH_DURATION_S: count(1).default(8),
  BENCH_PLAYERS: count(1).default(32),
  BENCH_CAMPAIGNS: count(1).default(8),
  BENCH_PURCHASE_WARMUP: count(0).default(4000),
  BENCH_ROUNDS: count(1).default(1),
  BENCH_MEMORY_LIMIT_MB: count(1).optional(),
  BENCH_SOAK_REQUESTS: count(1).default(1_000_000),
  BENCH_SOAK_S: count(1).default(120),
});

export type BenchSettings = z.infer<typeof schema>;

/** The settings in `env`; an empty variable counts as unset. Throws naming the first bad one. */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const parsed = schema.safeParse(set);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new Error(`npm run bench: ${String(issue?.path[0] ?? "a setting")}: ${issue?.message ?? "invalid"}`);
}
