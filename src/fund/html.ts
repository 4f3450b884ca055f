// HTML written by the funding page: every interpolated value is escaped unless it is markup
// this module built (`Html`), so no text a studio or a request wrote can become markup.

const brand = Symbol("html");

/** Markup built by `html` (safe to include as it is). */
export interface Html {
  readonly [brand]: true;
  readonly text: string;
}

type Part = Html | string | number | bigint | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] as string);
}

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (typeof part === "object" && brand in part) return part.text;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

/** A template of markup whose `${values}` are escaped (arrays joined, nullish and false left out). */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  const text = values.reduce<string>(
    (text, value, index) => text + render(value) + (strings[index + 1] ?? ""),
    strings[0] ?? "",
  );
  return { [brand]: true, text };
}

/** A whole page: one stylesheet of our own, no script, readable on a phone (viewport). */
export function document(title: string, main: Html): string {
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="/fund/assets/fund.css">
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`.text
  }`;
}
