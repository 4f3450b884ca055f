// The node options the bench's children start with: the parent's (a TypeScript loader, say),
// less the build check `npm run bench` preloads (scripts/ensure-built.mjs). The parent checked
// the build before it started; a child checking again would rebuild dist/ under a running bench
// whenever a source had changed since, in the middle of a measurement.

/** `execArgv` without the preloaded build check, in either spelling of `--import`. */
export function withoutBuildCheck(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i] as string;
    if (option === "--import" && execArgv[i + 1]?.endsWith("ensure-built.mjs")) {
      i++;
      continue;
    }
    if (option.startsWith("--import=") && option.endsWith("ensure-built.mjs")) continue;
    kept.push(option);
  }
  return kept;
}
