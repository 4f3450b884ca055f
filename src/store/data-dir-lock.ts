import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join, resolve } from "node:path";
import lockfile from "proper-lockfile";
import { StartupFailure } from "../startup/startup-failure.js";

export interface DataDirLockOptions {
  /** The lock is lost (its directory removed or not refreshed in time): stop writing at once. */
  onCompromised: (error: Error) => void;
}

// The holder refreshes the lock every UPDATE_MS; one not refreshed for STALE_MS belongs to a
// process that died (SIGKILL, power loss) and is taken over.
const STALE_MS = 10_000;
const UPDATE_MS = 2_000;

interface Owner {
  pid: number;
  host: string;
}

/**
 * The embedded database is one process's: two services on one DATA_DIR would each write their
 * own PGlite copy and lose the other's rows. proper-lockfile holds `service.lock` (an atomic
 * mkdir, kept fresh by its mtime; released on exit); `service.owner` names the holder for the
 * refusal. A lock left by a crash is taken over once stale, never while its holder lives.
 */
export async function lockDataDir(dataDir: string, options: DataDirLockOptions): Promise<() => Promise<void>> {
  try {
    return await acquire(dataDir, options);
  } catch (error) {
    if (error instanceof StartupFailure) throw error;
    // A folder that cannot be created or written (permissions, a file in the way).
    const { code, message } = error as NodeJS.ErrnoException;
    throw new StartupFailure(`DATA_DIR ${resolve(dataDir)} cannot be used (${code ?? message})`);
  }
}

async function acquire(dataDir: string, options: DataDirLockOptions): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const lockfilePath = join(dataDir, "service.lock");
  const ownerFile = join(dataDir, "service.owner");
  const lock = (retries: number) =>
    lockfile.lock(dataDir, {
      lockfilePath,
      stale: STALE_MS,
      update: UPDATE_MS,
      realpath: false,
      retries: { retries, minTimeout: 500, maxTimeout: 500, factor: 1 },
      onCompromised: options.onCompromised,
    });
  let release: () => Promise<void>;
  try {
    release = await lock(0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw error;
    const owner = readOwner(ownerFile);
    if (owner && isAliveHere(owner)) throw refusal(dataDir, owner);
    // The recorded holder is gone (or on another host): wait for its lock to go stale. A live
    // holder keeps refreshing it and is then refused like any other.
    try {
      release = await lock(Math.ceil((STALE_MS + UPDATE_MS) / 500));
    } catch (retryError) {
      if ((retryError as NodeJS.ErrnoException).code !== "ELOCKED") throw retryError;
      throw refusal(dataDir, readOwner(ownerFile));
    }
  }
  const owner: Owner = { pid: process.pid, host: hostname() };
  writeFileSync(ownerFile, `${JSON.stringify(owner)}\n`);
  return release;
}

function readOwner(file: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Owner;
  } catch {
    return undefined;
  }
}

function isAliveHere(owner: Owner): boolean {
  // Our own pid in the file is a previous run of this process's slot (a container's pid 1).
  if (owner.host !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function refusal(dataDir: string, owner: Owner | undefined): StartupFailure {
  const holder = owner ? `process ${owner.pid} on ${owner.host}` : "another process";
  return new StartupFailure(
    `DATA_DIR ${resolve(dataDir)} is in use by ${holder}: one service per embedded database (stop it, or set another DATA_DIR)`,
  );
}
