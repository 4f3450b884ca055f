import type { Interceptor } from "@connectrpc/connect";
import { apiKeyInterceptor } from "./api-key-interceptor.js";

/** What every transport helper takes. */
export interface EncoreTransportOptions {
  /** The service's address, e.g. `https://api.example.com` or `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** A studio API key (`ek_...`), an operator token, or none for the public calls. */
  apiKey?: string;
  /** Sent as binary protobuf rather than JSON (Connect protocol only; gRPC and gRPC-web are binary). */
  useBinaryFormat?: boolean;
  /** More interceptors, run after the one setting the API key. */
  interceptors?: Interceptor[];
}

/** The interceptors a transport runs: the API key's, then the caller's. */
export function interceptorsOf(options: EncoreTransportOptions): Interceptor[] {
  return [...(options.apiKey ? [apiKeyInterceptor(options.apiKey)] : []), ...(options.interceptors ?? [])];
}
