import { constants as http2Constants } from "node:http2";
import type { JsonValue } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ConnectNodeAdapterOptions } from "@connectrpc/connect-node";

/** The request and response types of connect-node's `fallback`, which this handler plugs into. */
export type RestRequest = Parameters<NonNullable<ConnectNodeAdapterOptions["fallback"]>>[0];
export type RestResponse = Parameters<NonNullable<ConnectNodeAdapterOptions["fallback"]>>[1];

/** A body already rendered as JSON text (render.ts renderResponseText). */
export class RenderedJson {
  constructor(readonly text: string) {}
}

export interface SendJsonOptions {
  readonly status: number;
  /** The body, or its JSON text already rendered. */
  readonly body: JsonValue | RenderedJson;
  /** Headers of the call (from the implementation and interceptors) to pass on. */
  readonly header?: Headers | undefined;
  /** Whether to end the connection (HTTP/1.1) or stream (HTTP/2) once the reply is out. */
  readonly close?: boolean;
}

/** Writes a JSON reply; every REST response, success or failure, is `application/json`. */
export function sendJson(req: RestRequest, res: RestResponse, options: SendJsonOptions): void {
  if (res.headersSent) return;
  const { body } = options;
  const text = body instanceof RenderedJson ? body.text : JSON.stringify(body);
  const headers: Record<string, string> = {};
  options.header?.forEach((value, name) => {
    headers[name] = value;
  });
  headers["content-type"] = "application/json";
  headers["content-length"] = String(Buffer.byteLength(text));
  let afterEnd: (() => void) | undefined;
  if (options.close === true) {
    if ("stream" in req) {
      // The response is complete before the request: RST_STREAM tells the client to stop
      // sending (RFC 9113 8.1). NO_ERROR is not acted on by Node while the request is paused;
      // CANCEL is, and arrives after the response, which the client has in full.
      afterEnd = () => req.stream.close(http2Constants.NGHTTP2_CANCEL);
    } else {
      // The rest of an oversized body is never read: the connection cannot be reused, so it
      // is half-closed after the reply and destroyed shortly after, never left hanging.
      headers.connection = "close";
      afterEnd = () => {
        const socket = req.socket;
        socket.end();
        setTimeout(() => socket.destroy(), 1000).unref();
      };
    }
  }
  (res as import("node:http").ServerResponse).writeHead(options.status, headers);
  if (afterEnd === undefined) res.end(text);
  else res.end(text, afterEnd);
}

/**
 * Calls `abort` if the response closes before it was finished (the client went away), with a
 * reason of our own: an AbortSignal aborted without one builds a DOMException and its stack.
 */
export function onClientGone(res: RestResponse, abort: (reason: unknown) => void): void {
  res.once("close", () => {
    if (!res.writableFinished) abort(new ConnectError("the client closed the request", Code.Canceled));
  });
}
