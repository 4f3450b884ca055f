import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const GO_CLIENT_DIR = resolve(import.meta.dirname, "../../clients/go");
const MODULE_PATH = "github.com/encore-campaigns/encore/clients/go";
// Debian's packaged Go libraries (grpc-go, protobuf, genproto): no module proxy here.
const DEBIAN_GOPATH = "/usr/share/gocode";

/** Whether `go` runs; CI sets REQUIRE_GO=1 so a missing toolchain fails instead of skipping. */
export async function goAvailable(): Promise<boolean> {
  try {
    await run("go", ["version"]);
    return true;
  } catch (error) {
    if (process.env.REQUIRE_GO) throw new Error(`REQUIRE_GO is set but go does not run: ${error}`);
    return false;
  }
}

export interface GoWorkspace {
  /** Runs `go <args>` in clients/go, in GOPATH mode, with `env` added. */
  go(args: string[], env?: Record<string, string>): Promise<{ stdout: string; stderr: string }>;
  close(): Promise<void>;
}

/** A GOPATH whose src/ holds clients/go at its module path (go-client-offline.md step 5). */
export async function createGoWorkspace(): Promise<GoWorkspace> {
  const gopath = await mkdtemp(join(tmpdir(), "encore-gopath-"));
  const packageDir = join(gopath, "src", MODULE_PATH);
  await mkdir(dirname(packageDir), { recursive: true });
  await symlink(GO_CLIENT_DIR, packageDir);
  return {
    go: (args, env = {}) =>
      run("go", args, {
        cwd: packageDir,
        env: { ...process.env, GO111MODULE: "off", GOPATH: `${gopath}:${DEBIAN_GOPATH}`, GOFLAGS: "", ...env },
        timeout: 240_000,
      }),
    close: () => rm(gopath, { recursive: true, force: true }),
  };
}
