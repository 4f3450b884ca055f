using System.Collections.Generic;

namespace Encore.Campaigns
{
    /// <summary>
    /// Spec 4.3: begin's language is ISO 639-1; Steam names languages ("english", "schinese").
    /// The same table as the service's src/platform/steam/steam-language.ts.
    /// </summary>
    public static class SteamLanguage
    {
        static readonly Dictionary<string, string> NameToIso = new Dictionary<string, string>
        {
            { "arabic", "ar" }, { "bulgarian", "bg" }, { "schinese", "zh" }, { "tchinese", "zh" },
            { "czech", "cs" }, { "danish", "da" }, { "dutch", "nl" }, { "english", "en" },
            { "finnish", "fi" }, { "french", "fr" }, { "german", "de" }, { "greek", "el" },
            { "hungarian", "hu" }, { "indonesian", "id" }, { "italian", "it" }, { "japanese", "ja" },
            { "koreana", "ko" }, { "norwegian", "no" }, { "polish", "pl" }, { "portuguese", "pt" },
            { "brazilian", "pt" }, { "romanian", "ro" }, { "russian", "ru" }, { "spanish", "es" },
            { "latam", "es" }, { "swedish", "sv" }, { "thai", "th" }, { "turkish", "tr" },
            { "ukrainian", "uk" }, { "vietnamese", "vi" },
        };

        /// <summary>A Steam language name or an ISO code (with or without region) to ISO 639-1; else "en".</summary>
        public static string ToIso(string language)
        {
            var normalized = (language ?? "").Trim().ToLowerInvariant();
            string iso;
            if (NameToIso.TryGetValue(normalized, out iso)) return iso;
            var primary = normalized.Replace('_', '-').Split('-')[0];
            return NameToIso.ContainsValue(primary) ? primary : "en";
        }
    }
}
