import type { RestRequest } from "./respond.js";

export type BodyResult =
  | { readonly kind: "ok"; readonly bytes: Uint8Array }
  | { readonly kind: "too-large" }
  /** The client reset or closed the request before its body ended: nobody is left to answer. */
  | { readonly kind: "aborted"; readonly cause: Error };

/**
 * Reads a request body of at most `limit` bytes. Past the limit it stops listening and pauses
 * the stream at once, so an oversized body is never buffered (spec 8: 64 KiB); the caller
 * answers and then closes the connection or stream (sendJson's `close`).
 */
export function readBody(req: RestRequest, limit: number): Promise<BodyResult> {
  const declared = Number(req.headers["content-length"] ?? Number.NaN);
  if (declared > limit) return Promise.resolve({ kind: "too-large" });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > limit) {
        cleanup();
        req.pause();
        chunks.length = 0;
        resolve({ kind: "too-large" });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve({ kind: "ok", bytes: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, total) });
    };
    // A request stream only fails on its peer's account (a reset, a closed connection).
    const onError = (cause: Error) => {
      cleanup();
      resolve({ kind: "aborted", cause });
    };
    const onAborted = () => onError(new Error("request aborted by the client"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}
