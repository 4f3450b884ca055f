import { readFileSync } from "node:fs";
import { join } from "node:path";
import { type Client, createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { OperatorService } from "../../gen/encore/operator/v1/operator_service_pb.js";

export const DEFAULT_URL = "http://127.0.0.1:8080";

export interface ConnectionOptions {
  url?: string;
  token?: string;
}

/**
 * The operator token: --token, else OPERATOR_TOKEN, else the one the service generated beside
 * its embedded database (DATA_DIR/secrets.json, DESIGN 4) on this machine.
 */
export function resolveToken(options: ConnectionOptions, env: NodeJS.ProcessEnv): string {
  const token = options.token ?? env.OPERATOR_TOKEN ?? localToken(env.DATA_DIR ?? "./.data");
  if (!token) {
    throw new Error("no operator token: pass --token, set OPERATOR_TOKEN, or run beside the service's DATA_DIR");
  }
  return token;
}

function localToken(dataDir: string): string | undefined {
  try {
    const saved = JSON.parse(readFileSync(join(dataDir, "secrets.json"), "utf8")) as { operatorToken?: unknown };
    return typeof saved.operatorToken === "string" ? saved.operatorToken : undefined;
  } catch {
    return undefined;
  }
}

/** An OperatorService client over the Connect protocol, sending the operator token. */
export function createOperatorClient(
  options: ConnectionOptions,
  env: NodeJS.ProcessEnv,
): Client<typeof OperatorService> {
  const token = resolveToken(options, env);
  const transport = createConnectTransport({
    baseUrl: options.url ?? env.ENCORE_URL ?? DEFAULT_URL,
    httpVersion: "1.1",
    interceptors: [
      (next) => (req) => {
        req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
  return createClient(OperatorService, transport);
}
