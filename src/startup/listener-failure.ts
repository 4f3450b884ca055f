import type { Config } from "../config.js";
import { StartupFailure } from "./startup-failure.js";

/** Creating or opening the listener failed: one line naming PORT, HOST or the TLS file. */
export function listenerFailure(
  error: unknown,
  { port, host, tls }: Pick<Config, "port" | "host" | "tls">,
): StartupFailure {
  const { code, path, message } = error as NodeJS.ErrnoException;
  if (tls && path !== undefined && (path === tls.certFile || path === tls.keyFile)) {
    const name = path === tls.certFile ? "TLS_CERT_FILE" : "TLS_KEY_FILE";
    return new StartupFailure(`${name} ${path} cannot be read (${code ?? message})`);
  }
  switch (code) {
    case "EADDRINUSE":
      return new StartupFailure(`PORT ${port} on HOST ${host} is already in use by another process`);
    case "EACCES":
      return new StartupFailure(
        `PORT ${port} on HOST ${host} is not permitted to this user (ports below 1024 need privileges)`,
      );
    case "EADDRNOTAVAIL":
      return new StartupFailure(`HOST ${host} is not an address of this machine`);
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return new StartupFailure(`HOST ${host} does not resolve to an address`);
  }
  // OpenSSL's errors for a file that is not PEM, or a key that is not the certificate's.
  if (tls && typeof code === "string" && code.startsWith("ERR_OSSL")) {
    return new StartupFailure(
      `TLS_CERT_FILE ${tls.certFile} and TLS_KEY_FILE ${tls.keyFile} are not a usable certificate and key (${message})`,
    );
  }
  return new StartupFailure(`cannot listen on HOST ${host} PORT ${port}: ${message}`);
}
