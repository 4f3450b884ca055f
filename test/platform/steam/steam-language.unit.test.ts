import { describe, expect, it } from "vitest";
import { toSteamLanguage } from "../../../src/platform/steam/steam-language.js";

describe("toSteamLanguage", () => {
  it.each([
    // ISO 639-1 codes pass through
    ["en", "en"],
    ["de", "de"],
    ["ja", "ja"],
    ["DE", "de"],
    // region forms keep their supported primary code
    ["pt-BR", "pt"],
    ["zh-CN", "zh"],
    ["es-419", "es"],
    ["zh_TW", "zh"],
    // Steam API language names (reference 3.12)
    ["english", "en"],
    ["schinese", "zh"],
    ["tchinese", "zh"],
    ["brazilian", "pt"],
    ["latam", "es"],
    ["koreana", "ko"],
    ["ukrainian", "uk"],
    [" German ", "de"],
    // anything else falls back to English
    ["klingon", "en"],
    ["he", "en"],
    ["", "en"],
    [undefined, "en"],
  ])("%j -> %s", (input, expected) => {
    expect(toSteamLanguage(input)).toBe(expected);
  });
});
