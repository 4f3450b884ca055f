import { invalidArgument, unavailable } from "../../errors/status.js";
import type { PartnerApp, PlatformResult } from "../../platform/steam/steam-platform.js";

// How the studio's management calls read the platform's answers about a publisher key
// (spec 4.6): a refused key is the caller's argument, a platform that does not answer is
// UNAVAILABLE. Nothing the platform said is echoed: its text could carry the key.

/** The apps a key owns, or the refusal the management call answers with. */
export function appsOrRefusal(result: PlatformResult<readonly PartnerApp[]>): readonly PartnerApp[] {
  if (result.kind === "ok") return result.value;
  if (result.kind === "unavailable") throw unavailable("The platform is not answering; retry with backoff.");
  throw invalidArgument("The platform rejected the publisher key.");
}

/** Spec 4.6: a key owning no game is refused like a rejected one. */
export function ownsAGame(apps: readonly PartnerApp[]): boolean {
  return apps.some((app) => app.appType.toLowerCase() === "game");
}

/** Publisher keys are printable ASCII without spaces; anything else never reaches the platform. */
export function isPlausibleKey(key: string): boolean {
  return /^[\x21-\x7e]{1,256}$/.test(key);
}

/** Display names are for people; the overlay shows an offer's, limited by the platform to 128 characters. */
export function checkDisplayName(value: string, field: string, maxLength: number): string {
  if ([...value].length > maxLength) throw invalidArgument(`"${field}" must be at most ${maxLength} characters.`);
  return value;
}
