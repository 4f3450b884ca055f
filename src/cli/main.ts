import { Code, ConnectError } from "@connectrpc/connect";
import { CommanderError } from "commander";
import { createProgram } from "./create-program.js";

// Entry of `npm run admin -- <command>`. Any failure prints its message and exits 1.

async function main(): Promise<void> {
  const program = createProgram({ env: process.env, write: (text) => process.stdout.write(text) });
  await program.parseAsync(process.argv);
}

main().catch((error: unknown) => {
  if (error instanceof CommanderError) {
    // Commander printed its own message (or the help, which is not a failure).
    process.exit(error.exitCode === 0 ? 0 : 1);
  }
  if (error instanceof ConnectError) {
    process.stderr.write(`error: ${Code[error.code]}: ${error.rawMessage}\n`);
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
