// Whether a studio announcement says its game is ending (spec 3.2: "the studio's own
// announcement says it is ending"). Words, not a model: a phrase list, tested by table.

export interface Announcement {
  title: string;
  /** Steam BBCode; tags are ignored. */
  contents: string;
  /** The studio's own community announcement (not a press feed). */
  isAnnouncement: boolean;
}

const ENDING_PHRASES: readonly RegExp[] = [
  /\bend of (service|support|life)\b/,
  /\bend-of-(service|support|life)\b/,
  /\bshutting down\b/,
  /\b(will|to) (be )?shut(ting)? down\b/,
  /\bshutdown of\b/,
  /\bservers? (will|are going to) (close|be closed|go offline|be shut down|be turned off)\b/,
  /\bclosing (the|our) servers\b/,
  /\bsunset(ting)?\b/,
  /\bfinal (update|patch|season)\b/,
  /\bdiscontinu(ed|ing)\b/,
  /\bno longer be (playable|available|supported)\b/,
];

export function saysGameIsEnding(text: string): boolean {
  // BBCode tags out, whitespace collapsed, lower case: phrases match across formatting.
  const normalised = text
    .replace(/\[[^\]]*\]/g, " ")
    .replace(/\s+/g, " ")
    .toLowerCase();
  return ENDING_PHRASES.some((phrase) => phrase.test(normalised));
}

/**
 * The title of the newest studio announcement saying the game is ending (items come newest
 * first), or "" when none does. Press and other feeds do not count: only the studio speaks
 * for its game.
 */
export function findEndingAnnouncement(items: readonly Announcement[]): string {
  const found = items.find((item) => item.isAnnouncement && saysGameIsEnding(`${item.title}\n${item.contents}`));
  return found === undefined ? "" : found.title || "(untitled announcement)";
}
