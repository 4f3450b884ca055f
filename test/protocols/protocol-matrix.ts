import {
  createRegistry,
  type DescMethodUnary,
  fromJson,
  type JsonObject,
  type JsonValue,
  toJson,
} from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { expect, it } from "vitest";
import { file_google_rpc_error_details } from "../../gen/google/rpc/error_details_pb.js";
import { errorToStatus } from "../../src/transcode/status-json.js";
import type { ProtocolName, TestServer } from "../support/test-server.js";

// STYLE rule 12: one table of cases, each replayed over every protocol the service speaks; every
// protocol must give the same answer, the message or the refusal (code, HTTP status, message,
// ErrorInfo reason and every detail).

/** "connect" is Connect with binary protobuf, "connect-json" Connect with JSON. */
export const PROTOCOLS = ["rest", "connect-json", "connect", "grpc", "grpc-web"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export interface RestCall {
  method: string;
  /** Path and query, as a REST client spells them. */
  path: string;
  body?: unknown;
}

export interface MatrixCase<P> {
  name: string;
  method: DescMethodUnary;
  /** Runs before each protocol's call: state of its own for calls that change something. */
  prepare: () => Promise<P>;
  /** The caller's bearer token, if any. */
  token?: (prepared: P) => string | undefined;
  /** The request in ProtoJSON, for the RPC protocols. */
  request: (prepared: P) => JsonObject;
  /** The same request over REST, spelled as the google.api.http rule says. */
  rest: (prepared: P) => RestCall;
  /**
   * Dotted paths of answer fields that differ between protocols by construction (ids and times
   * of what each call made): each must be set, and is compared as "<varies>".
   */
  varies?: readonly string[];
  /** Part of the answer every protocol must give (a function when it names fixtures made later). */
  expected: Partial<Answer> | (() => Partial<Answer>);
}

/** What a call answered, the same shape whatever the protocol. */
export type Answer =
  | { ok: true; message: JsonValue }
  | { ok: false; code: number; httpStatus: number; message: string; reason: string | undefined; details: JsonValue };

/** A case of the table, typed by its own prepared state. */
export function matrixCase<P>(c: MatrixCase<P>): MatrixCase<unknown> {
  return c as MatrixCase<unknown>;
}

/** One vitest test per case: the case over every protocol, every answer equal. */
export function replayEachCase(server: () => TestServer, cases: readonly MatrixCase<unknown>[]): void {
  for (const c of cases) {
    it(c.name, async () => {
      const answers: Partial<Record<Protocol, Answer>> = {};
      for (const protocol of PROTOCOLS) {
        answers[protocol] = maskVaried(await answerOver(server(), protocol, c, await c.prepare()), c.varies ?? []);
      }
      expect(answers.rest).toMatchObject(typeof c.expected === "function" ? c.expected() : c.expected);
      expect(answers).toEqual(Object.fromEntries(PROTOCOLS.map((protocol) => [protocol, answers.rest])));
    });
  }
}

const registry = createRegistry(file_google_rpc_error_details);
const jsonOptions = { alwaysEmitImplicit: true, registry } as const;

async function answerOver<P>(server: TestServer, protocol: Protocol, c: MatrixCase<P>, prepared: P): Promise<Answer> {
  const token = c.token?.(prepared);
  if (protocol === "rest") {
    const call = c.rest(prepared);
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    const res = await server.rest(call.method, call.path, call.body, headers);
    if (res.status === 200) {
      const message = fromJson(c.method.output, res.body, { registry });
      return { ok: true, message: toJson(c.method.output, message, jsonOptions) };
    }
    return refusalOf(res.status, res.body);
  }
  const transport = server.transport(protocol satisfies ProtocolName, token);
  try {
    const input = fromJson(c.method.input, c.request(prepared), { registry });
    const res = await transport.unary(c.method, undefined, undefined, undefined, input);
    return { ok: true, message: toJson(c.method.output, res.message, jsonOptions) };
  } catch (error) {
    // The refusal as a google.rpc.Status, the form REST answers it in, to compare the two.
    const status = errorToStatus(ConnectError.from(error), {
      registry,
      onInternalError: (cause) => {
        throw cause;
      },
    });
    return refusalOf(status.httpStatus, status.body);
  }
}

function refusalOf(httpStatus: number, status: JsonObject): Answer {
  const details = (status.details ?? []) as JsonObject[];
  const info = details.find((detail) => detail["@type"] === "type.googleapis.com/google.rpc.ErrorInfo");
  return {
    ok: false,
    code: status.code as number,
    httpStatus,
    message: status.message as string,
    reason: info?.reason as string | undefined,
    details,
  };
}

function maskVaried(answer: Answer, varies: readonly string[]): Answer {
  if (!answer.ok || varies.length === 0) return answer;
  const message = structuredClone(answer.message) as JsonObject;
  for (const path of varies) {
    const keys = path.split(".");
    const last = keys.pop() as string;
    let parent: JsonObject = message;
    for (const key of keys) parent = parent[key] as JsonObject;
    const value = parent?.[last];
    expect(value === undefined || value === null || value === "", `${path} is set`).toBe(false);
    parent[last] = "<varies>";
  }
  return { ok: true, message };
}
