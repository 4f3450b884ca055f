import type { Client } from "@connectrpc/connect";
import type { Command } from "commander";
import type { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";
import { createOperatorClient } from "./operator-client.js";
import type { Output } from "./output.js";

export interface CliEnvironment {
  env: NodeJS.ProcessEnv;
  write(text: string): void;
}

export interface CommandContext {
  client: Client<typeof OperatorService>;
  output: Output;
}

interface GlobalOptions {
  url?: string;
  token?: string;
  json?: boolean;
}

/** The client and output of one command, from the program's global options. */
export function commandContext(command: Command, environment: CliEnvironment): CommandContext {
  const { url, token, json } = command.optsWithGlobals<GlobalOptions>();
  return {
    client: createOperatorClient({ url, token }, environment.env),
    output: { json: json === true, write: environment.write },
  };
}

/** A whole number option (page sizes, lifetimes). */
export function parseCount(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text)) throw new Error(`"${text}" is not a whole number.`);
  return Number(text);
}
