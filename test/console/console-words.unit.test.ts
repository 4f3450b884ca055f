import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
import { reasons } from "../../src/errors/reasons.js";

// The console's word tables are its own sources (built by Vite against the TypeScript client,
// not importable here), so they are read as text: every ErrorInfo reason the service can give
// has its words (console/src/errors.ts), and every webhook event type a box to tick and words
// (console/src/words.ts). A reason or event type added without them fails here, not in a studio's
// browser as a bare code.

const source = (path: string) => readFileSync(new URL(`../../console/src/${path}`, import.meta.url), "utf8");

describe("the console's words", () => {
  it("words every ErrorInfo reason of the service, and no other", () => {
    const table = source("errors.ts").match(/REASON_WORDS: Record<string, string> = \{([\s\S]*?)\n\};/)?.[1] ?? "";
    const worded = [...table.matchAll(/^ {2}([A-Z_]+):/gm)].map((match) => match[1]);
    expect(worded.sort()).toEqual(Object.keys(reasons).sort());
  });

  it("offers every webhook event type, and no other", () => {
    const table = source("words.ts").match(/WEBHOOK_EVENTS: [^=]+= \[([\s\S]*?)\n\];/)?.[1] ?? "";
    const offered = [...table.matchAll(/type: "([a-z_.]+)", words: "[^"]+"/g)].map((match) => match[1]);
    expect(offered).toEqual([...WEBHOOK_EVENT_TYPES]);
  });
});
