import { invalidArgument } from "../../errors/status.js";

const MAX_ORIGINS = 100;

/**
 * Browser origins allowed to call the public API (spec 8): each exactly `scheme://host[:port]`
 * as a browser sends it in `Origin`, i.e. http or https, lower-case host, no default port, no
 * path, query or trailing slash. Duplicates are dropped.
 */
export function readAllowedOrigins(origins: readonly string[]): string[] {
  if (origins.length > MAX_ORIGINS) throw invalidArgument(`"allowedOrigins" may hold at most ${MAX_ORIGINS} origins.`);
  for (const origin of origins) {
    if (!isExactOrigin(origin)) {
      throw invalidArgument(
        `"allowedOrigins": "${origin}" is not exactly scheme://host[:port] (e.g. https://game.example).`,
      );
    }
  }
  return [...new Set(origins)];
}

export function isExactOrigin(origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  // URL.origin re-serialises what was parsed: any path, query, fragment, credentials, upper
  // case or default port makes it differ from the input.
  return url.origin === origin;
}
