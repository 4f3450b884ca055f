import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";

/**
 * A `requestGate` for connect-node that makes a request body the caller got wrong an
 * INVALID_ARGUMENT on Connect, gRPC and gRPC-web, as REST answers it: connect-node refuses a
 * body it cannot parse as INTERNAL ("parse binary: ...", HTTP 500, grpc-status 13) and one over
 * `readMaxBytes` (also after decompression) as RESOURCE_EXHAUSTED (HTTP 429, grpc-status 8),
 * which games retry forever (spec 4.5). Both happen in the protocol layer, before any
 * interceptor (connect-es protocol/serialization.ts, protocol/limit-io.ts, connect-node
 * compression.ts). Every protocol handler aborts the call's context with the error just before
 * it writes the error out: listening for that abort is the one moment our code holds it, and
 * the error is corrected there, in place.
 */
export function createRequestBodyErrors(options: { maxBodyBytes: number }): (context: HandlerContext) => void {
  const tooLarge = `the request body exceeds ${options.maxBodyBytes} bytes`;
  return (context) => {
    const { signal } = context;
    signal.addEventListener(
      "abort",
      () => {
        const error: unknown = signal.reason;
        if (!(error instanceof ConnectError) || error.isWireError) return;
        const message = correctedMessage(error, { tooLarge, input: context.method.input.typeName });
        if (message === undefined) return;
        const corrected = new ConnectError(message, Code.InvalidArgument);
        Object.assign(error, { code: corrected.code, rawMessage: corrected.rawMessage, message: corrected.message });
      },
      { once: true },
    );
  };
}

function correctedMessage(error: ConnectError, texts: { tooLarge: string; input: string }): string | undefined {
  const raw = error.rawMessage;
  // limit-io.ts and compression.ts: "... larger than configured readMaxBytes ...".
  if (error.code === Code.ResourceExhausted && raw.includes("readMaxBytes")) return texts.tooLarge;
  if (error.code !== Code.Internal) return undefined;
  if (raw.startsWith("parse binary:")) return `the request body is not a valid ${texts.input}`;
  // compression.ts and envelope.ts: a compressed body that does not decompress.
  if (raw === "decompression failed" || raw.startsWith("received compressed envelope")) {
    return "the request body could not be decompressed";
  }
  return undefined;
}
