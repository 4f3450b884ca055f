import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { databaseUrl, uniqueDatabaseName } from "../test/support/test-database.js";
import { interruption, undoneOnInterrupt } from "./interrupts.js";

// PostgreSQL's own benchmark on the same server, in the same run, as the baseline the service's
// database-bound figures are compared with: simple-update (-N, three updates, a select and an
// insert per transaction) and select-only (-S), on a scratch database made with `pgbench -i`.

const run = promisify(execFile);

export interface PgbenchResult {
  tps: number;
  /** Average latency, ms. */
  latencyMs: number;
}

export type Pgbench =
  | { available: true; simpleUpdate: PgbenchResult; selectOnly: PgbenchResult }
  | { available: false; why: string };

export async function runPgbench(serverUrl: string, seconds: number, clients = 16): Promise<Pgbench> {
  try {
    await run("pgbench", ["--version"]);
  } catch {
    return { available: false, why: "pgbench is not installed (apt-get install postgresql-client)" };
  }
  interruption.throwIfAborted();
  const name = uniqueDatabaseName("bench_pgbench");
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  const drop = undoneOnInterrupt(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  // Interrupted, pgbench is stopped with the bench rather than left to run out its -T.
  const options = { signal: interruption };
  try {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = databaseUrl(serverUrl, name);
    await run("pgbench", ["-i", "-q", "-s", "1", url], options);
    const once = async (mode: string): Promise<PgbenchResult> => {
      const args = [mode, "-c", String(clients), "-j", "2", "-T", String(seconds), url];
      const { stdout } = await run("pgbench", args, options);
      return {
        tps: Number(/tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1] ?? Number.NaN),
        latencyMs: Number(/latency average = ([\d.]+) ms/.exec(stdout)?.[1] ?? Number.NaN),
      };
    };
    return { available: true, simpleUpdate: await once("-N"), selectOnly: await once("-S") };
  } finally {
    await drop();
  }
}
