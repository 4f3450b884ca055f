import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { isIP } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface CertificateFiles {
  certFile: string;
  keyFile: string;
}

/**
 * A one-day self-signed certificate and its key, written by openssl into `dir` (default: a fresh
 * temporary folder). `host` is named in subjectAltName as a DNS name or an IP address: Go and
 * Node verify that, not the CN.
 */
export function selfSignedCertificate(
  host = "localhost",
  dir = mkdtempSync(join(tmpdir(), "encore-tls-")),
): CertificateFiles {
  const certFile = join(dir, "cert.pem");
  const keyFile = join(dir, "key.pem");
  const subjectAltName = `subjectAltName=${isIP(host) ? "IP" : "DNS"}:${host}`;
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      `/CN=${host}`,
      "-addext",
      subjectAltName,
    ].concat(["-keyout", keyFile, "-out", certFile]),
    { stdio: "ignore" },
  );
  return { certFile, keyFile };
}
