import pino, { type Logger } from "pino";

/**
 * The service's logger. Credentials are redacted wherever they appear in a logged object, as
 * a second line of defence: code never logs them on purpose.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: "encore-campaigns" },
    redact: {
      paths: [
        "authorization",
        "*.authorization",
        "headers.authorization",
        "*.headers.authorization",
        "publisherKey",
        "*.publisherKey",
        "key",
        "*.key",
        "operatorToken",
        "*.operatorToken",
      ],
      censor: "[redacted]",
    },
  });
}
