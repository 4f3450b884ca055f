import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";

export const DEFAULT_URL = "http://127.0.0.1:8080";

export interface ConnectionOptions {
  url?: string;
  token?: string;
  /** A PEM file of the certificate authorities to trust for an https:// service. */
  ca?: string;
  /** Skip verifying an https:// service's certificate (a local self-signed one). */
  insecure?: boolean;
}

/**
 * The operator token: --token, else OPERATOR_TOKEN, else the one the service generated beside
 * its embedded database (DATA_DIR/secrets.json, DESIGN 4) on this machine; with where it came
 * from, for an authentication failure (never the token itself).
 */
function resolveToken(options: ConnectionOptions, env: NodeJS.ProcessEnv): { token: string; source: string } {
  if (options.token) return { token: options.token, source: "the --token flag" };
  if (env.OPERATOR_TOKEN) return { token: env.OPERATOR_TOKEN, source: "OPERATOR_TOKEN" };
  const { file, value: token } = localSecret(env, "operatorToken");
  if (!token) {
    throw new Error(
      `no operator token: pass --token, set OPERATOR_TOKEN, or run beside the service's DATA_DIR (${file})`,
    );
  }
  return { token, source: file };
}

/** A secret the service keeps beside its embedded database (DATA_DIR/secrets.json), if this machine has it. */
export function localSecret(env: NodeJS.ProcessEnv, field: string): { file: string; value: string | undefined } {
  const file = join(env.DATA_DIR ?? "./.data", "secrets.json");
  try {
    const value = (JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>)[field];
    return { file, value: typeof value === "string" && value !== "" ? value : undefined };
  } catch {
    return { file, value: undefined };
  }
}

/** The service's address: --url, else ENCORE_URL, else the local default. */
export function serviceUrl(options: ConnectionOptions, env: NodeJS.ProcessEnv): string {
  return options.url ?? env.ENCORE_URL ?? DEFAULT_URL;
}

/** A Connect transport to the service sending the operator token (every operator service). */
export function createOperatorTransport(options: ConnectionOptions, env: NodeJS.ProcessEnv): Transport {
  const { token, source } = resolveToken(options, env);
  return createConnectTransport({
    baseUrl: serviceUrl(options, env),
    httpVersion: "1.1",
    nodeOptions: {
      ...(options.ca === undefined ? {} : { ca: readCa(options.ca) }),
      ...(options.insecure ? { rejectUnauthorized: false } : {}),
    },
    interceptors: [
      (next) => async (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        try {
          return await next(req);
        } catch (error) {
          // Which token was refused is what the operator needs to fix it.
          if (error instanceof ConnectError && error.code === Code.Unauthenticated) {
            throw new ConnectError(`${error.rawMessage} (the operator token came from ${source})`, error.code);
          }
          throw error;
        }
      },
    ],
  });
}

export function readCa(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new Error(`--ca ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
