extends Reference

# Spec 4.3: begin's `language` is ISO 639-1; Steam names languages ("english", "schinese").
# The same table as the service's src/platform/steam/steam-language.ts.

const STEAM_NAME_TO_ISO = {
	"arabic": "ar", "bulgarian": "bg", "schinese": "zh", "tchinese": "zh", "czech": "cs",
	"danish": "da", "dutch": "nl", "english": "en", "finnish": "fi", "french": "fr",
	"german": "de", "greek": "el", "hungarian": "hu", "indonesian": "id", "italian": "it",
	"japanese": "ja", "koreana": "ko", "norwegian": "no", "polish": "pl", "portuguese": "pt",
	"brazilian": "pt", "romanian": "ro", "russian": "ru", "spanish": "es", "latam": "es",
	"swedish": "sv", "thai": "th", "turkish": "tr", "ukrainian": "uk", "vietnamese": "vi",
}


# A Steam language name, or an ISO code with or without region, to a bare ISO 639-1 code;
# anything unknown is English, as Steam's overlay would fall back to.
static func to_iso(language):
	var normalized = str(language).strip_edges().to_lower()
	if STEAM_NAME_TO_ISO.has(normalized):
		return STEAM_NAME_TO_ISO[normalized]
	var primary = normalized.replace("_", "-").split("-")[0]
	if STEAM_NAME_TO_ISO.values().has(primary):
		return primary
	return "en"
