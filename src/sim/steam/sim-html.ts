// The simulator's browser pages (Steam's sign-in and web checkout): one small, accessible shell
// that reads on a phone and a desktop, with no script and nothing loaded from elsewhere.

import type { SimAnswer } from "./sim-answer.js";

const STYLE = `
body { margin: 0; font: 1rem/1.5 system-ui, sans-serif; color: #111; background: #fff; }
main { max-width: 32rem; margin: 0 auto; padding: 1.5rem 1rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 1rem 0 0.25rem; }
input { box-sizing: border-box; width: 100%; font: inherit; padding: 0.5rem; border: 1px solid #444; border-radius: 4px; }
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.25rem; }
button { font: inherit; padding: 0.6rem 1.25rem; border-radius: 4px; border: 1px solid #1a3d6d; cursor: pointer; }
button.primary { background: #1a3d6d; color: #fff; }
button.secondary { background: #fff; color: #1a3d6d; }
button:focus-visible, input:focus-visible, a:focus-visible { outline: 3px solid #b35900; outline-offset: 2px; }
table { width: 100%; border-collapse: collapse; margin: 1rem 0; }
th, td { text-align: left; padding: 0.4rem 0.25rem; border-bottom: 1px solid #ccc; }
td.amount, th.amount { text-align: right; white-space: nowrap; }
.error { color: #a00000; font-weight: 600; }
.note { color: #444; font-size: 0.9rem; }
a { color: #1a3d6d; }
`;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole page; `body` is trusted markup (escape every value put in it). */
export function htmlPage(status: number, title: string, body: string): SimAnswer {
  return {
    status,
    html:
      `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width, initial-scale=1">` +
      `<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>` +
      `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  };
}

/** A page saying what was wrong with the request, for a person to read. */
export function badRequestPage(message: string): SimAnswer {
  return htmlPage(400, "Bad request", `<p class="error">${escapeHtml(message)}</p>`);
}

/** Hidden form fields carrying these values on to the next POST. */
export function hiddenFields(fields: Iterable<readonly [string, string]>): string {
  return [...fields]
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
}

/** An absolute http(s) URL, or undefined. */
export function httpUrl(text: string | null): URL | undefined {
  if (text === null || !URL.canParse(text)) return undefined;
  const url = new URL(text);
  return url.protocol === "http:" || url.protocol === "https:" ? url : undefined;
}
