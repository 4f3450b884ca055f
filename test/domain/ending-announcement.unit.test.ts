import { describe, expect, it } from "vitest";
import { findEndingAnnouncement, saysGameIsEnding } from "../../src/domain/ending-announcement.js";

describe("saysGameIsEnding", () => {
  it.each([
    ["End of Service announcement", true],
    ["We are shutting down the game on March 1", true],
    ["[p]The servers will close on 1 March.[/p]", true],
    ["Servers will be shut down next month", true],
    ["The game will shut down at the end of the year", true],
    ["Sunsetting Space Game", true],
    ["This is our final update", true],
    ["End-of-life notice", true],
    ["The game is being discontinued", true],
    ["After this date the game will no longer be playable", true],
    ["Patch notes 1.2: bug fixes", false],
    ["Season 4 is here, with new maps", false],
    ["Sunrise event starts today", false],
    ["Server maintenance tonight", false],
    ["We will keep updating the game", false],
  ])("%s -> %s", (text, ending) => {
    expect(saysGameIsEnding(text)).toBe(ending);
  });
});

describe("findEndingAnnouncement", () => {
  const item = (title: string, contents = "", isAnnouncement = true) => ({ title, contents, isAnnouncement });

  it("takes the newest studio announcement that says the game is ending", () => {
    expect(findEndingAnnouncement([item("Patch"), item("Farewell", "Servers will close soon"), item("Sunset")])).toBe(
      "Farewell",
    );
  });

  it("ignores press and other feeds", () => {
    expect(findEndingAnnouncement([item("Game is shutting down, says site", "", false)])).toBe("");
  });

  it("answers empty when nothing says so", () => {
    expect(findEndingAnnouncement([])).toBe("");
    expect(findEndingAnnouncement([item("New skins")])).toBe("");
  });
});
