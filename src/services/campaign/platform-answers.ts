import { PLATFORM_UNAVAILABLE } from "../../errors/messages.js";
import { invalidArgument, unavailable } from "../../errors/status.js";
import type { PartnerApp, PlatformResult } from "../../platform/steam/steam-platform.js";

// How the studio's management calls read the platform's answers about a publisher key
// (spec 4.6): a refused key is the caller's argument, a platform that does not answer is
// UNAVAILABLE. Nothing the platform said is echoed: its text could carry the key.

/** The apps a key owns, or the refusal the management call answers with. */
export function appsOrRefusal(result: PlatformResult<readonly PartnerApp[]>): readonly PartnerApp[] {
  if (result.kind === "ok") return result.value;
  if (result.kind === "unavailable") throw unavailable(PLATFORM_UNAVAILABLE);
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

// A runway alert beyond ten years would never fire usefully.
const MAX_RUNWAY_ALERT_DAYS = 3650;

/** A campaign's runway alert threshold in days: 0 (off) up to MAX_RUNWAY_ALERT_DAYS. */
export function checkRunwayAlertDays(value: number, field: string): number {
  if (value < 0 || value > MAX_RUNWAY_ALERT_DAYS) {
    throw invalidArgument(`"${field}" must be between 0 and ${MAX_RUNWAY_ALERT_DAYS}.`);
  }
  return value;
}
