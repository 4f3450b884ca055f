/**
 * The node options a WORKERS primary forks its workers with: its own, less the preload that
 * checks the build (`npm start` runs `node --import ./scripts/ensure-built.mjs ...`). The primary
 * checked (and if need be made) the build before it started; a worker forked later, to replace
 * one that died, must not build dist/ again under the running service because a source changed.
 */
export function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] as string;
    if (option === "--import" && isBuildCheck(execArgv[i + 1])) {
      i += 1;
      continue;
    }
    if (option.startsWith("--import=") && isBuildCheck(option.slice("--import=".length))) continue;
    kept.push(option);
  }
  return kept;
}

function isBuildCheck(module: string | undefined): boolean {
  return module !== undefined && /(^|[/\\])ensure-built\.mjs$/.test(module);
}
