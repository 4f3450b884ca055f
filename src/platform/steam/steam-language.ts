// InitTxn `language` takes a Web API language code and only Steam's fully supported languages
// (reference 3.12). The service accepts ISO 639-1 codes or Steam API language names (spec 4.x
// `language`); both end as a bare ISO 639-1 code here. Region forms (zh-CN, pt-BR, es-419) are
// reduced to their two-letter prefix because whether InitTxn accepts them is unconfirmed, while
// `zh` was seen accepted (reference 3.12 notes). Anything else falls back to English.

const STEAM_NAME_TO_ISO: Readonly<Record<string, string>> = {
  arabic: "ar",
  bulgarian: "bg",
  schinese: "zh",
  tchinese: "zh",
  czech: "cs",
  danish: "da",
  dutch: "nl",
  english: "en",
  finnish: "fi",
  french: "fr",
  german: "de",
  greek: "el",
  hungarian: "hu",
  indonesian: "id",
  italian: "it",
  japanese: "ja",
  koreana: "ko",
  norwegian: "no",
  polish: "pl",
  portuguese: "pt",
  brazilian: "pt",
  romanian: "ro",
  russian: "ru",
  spanish: "es",
  latam: "es",
  swedish: "sv",
  thai: "th",
  turkish: "tr",
  ukrainian: "uk",
  vietnamese: "vi",
};

const SUPPORTED_ISO = new Set(Object.values(STEAM_NAME_TO_ISO));

export const DEFAULT_LANGUAGE = "en";

/** Maps an ISO 639-1 code (optionally with a region) or a Steam language name to a supported ISO 639-1 code. */
export function toSteamLanguage(language: string | undefined): string {
  const normalized = (language ?? "").trim().toLowerCase();
  const fromName = STEAM_NAME_TO_ISO[normalized];
  if (fromName !== undefined) return fromName;
  const primary = normalized.split(/[-_]/, 1)[0] ?? "";
  return SUPPORTED_ISO.has(primary) ? primary : DEFAULT_LANGUAGE;
}
