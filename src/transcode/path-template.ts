import { Code, ConnectError } from "@connectrpc/connect";

// google.api.http path templates (api-conventions 4.3):
//   Template = "/" Segments [ Verb ] ;  Segments = Segment { "/" Segment } ;
//   Segment  = "*" | "**" | LITERAL | Variable ;  Variable = "{" FieldPath [ "=" Segments ] "}" ;
//   FieldPath = IDENT { "." IDENT } ;  Verb = ":" LITERAL ;

/** One segment of a compiled template; variables are ranges over these. */
export type TemplateSegment =
  | { readonly kind: "literal"; readonly value: string }
  | { readonly kind: "wildcard" }
  | { readonly kind: "deep-wildcard" };

/** A variable binds the request segments [start, end) to a field path. */
export interface TemplateVariable {
  readonly fieldPath: readonly string[];
  readonly start: number;
  /** Exclusive; for a variable ending in `**`, the end of the request path. */
  readonly end: number;
  /** `{x}` / `{x=*}`: decoded fully; anything wider keeps `%2F` encoded (4.3). */
  readonly singleSegment: boolean;
}

export interface PathTemplate {
  readonly source: string;
  readonly segments: readonly TemplateSegment[];
  readonly variables: readonly TemplateVariable[];
  readonly verb: string | undefined;
}

/** Parses a template; throws an Error naming the template on any grammar violation. */
export function parsePathTemplate(source: string): PathTemplate {
  const fail = (why: string): never => {
    throw new Error(`invalid path template "${source}": ${why}`);
  };
  if (!source.startsWith("/")) fail("must start with /");
  const segments: TemplateSegment[] = [];
  const variables: TemplateVariable[] = [];
  const fieldPaths = new Set<string>();
  let pos = 1;
  let verb: string | undefined;

  const parseSegment = (insideVariable: boolean): void => {
    const stop = insideVariable ? /[/}]/ : /[/:{]/;
    let end = pos;
    while (end < source.length && !stop.test(source.charAt(end))) end++;
    const text = source.slice(pos, end);
    pos = end;
    if (text === "*") segments.push({ kind: "wildcard" });
    else if (text === "**") segments.push({ kind: "deep-wildcard" });
    else if (/^[^*{}=]+$/.test(text)) segments.push({ kind: "literal", value: text });
    else fail(`bad segment "${text}"`);
  };

  const parseVariable = (): void => {
    const close = source.indexOf("}", pos);
    if (close < 0) fail("unclosed {");
    const inner = source.slice(pos + 1, close);
    const eq = inner.indexOf("=");
    const path = eq < 0 ? inner : inner.slice(0, eq);
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(path)) fail(`bad field path "${path}"`);
    if (fieldPaths.has(path)) fail(`field path "${path}" bound twice`);
    fieldPaths.add(path);
    const start = segments.length;
    if (eq < 0) {
      segments.push({ kind: "wildcard" });
      pos = close + 1;
    } else {
      pos += 1 + eq + 1;
      for (;;) {
        if (source.charAt(pos) === "{") fail("variables cannot nest");
        parseSegment(true);
        if (source.charAt(pos) === "}") break;
        pos++; // the "/" between segments of the variable's pattern
      }
      pos++;
    }
    const end = segments.length;
    const only = segments[start];
    variables.push({
      fieldPath: path.split("."),
      start,
      end,
      singleSegment: end - start === 1 && only?.kind === "wildcard",
    });
  };

  for (;;) {
    if (source.charAt(pos) === "{") parseVariable();
    else parseSegment(false);
    const next = source.charAt(pos);
    if (next === "/") {
      pos++;
      continue;
    }
    if (next === ":") {
      verb = source.slice(pos + 1);
      if (!/^[^/{}:*]+$/.test(verb)) fail(`bad verb "${verb}"`);
      pos = source.length;
    }
    if (pos !== source.length) fail(`unexpected "${next}" at ${pos}`);
    break;
  }
  const deep = segments.findIndex((s) => s.kind === "deep-wildcard");
  if (deep >= 0 && deep !== segments.length - 1) fail("** must be the last segment");
  return { source, segments, variables, verb };
}

/** A request path already split for matching: done once per request, shared by all routes. */
export interface SplitPath {
  /** Segments of the whole path (without the leading "/"). */
  readonly segments: readonly string[];
  /** The text after the last ":" of the last segment, when there is one. */
  readonly verb: string | undefined;
  /** `segments` with `:verb` cut from the last one; a template with a verb matches these. */
  readonly segmentsBeforeVerb: readonly string[];
}

export function splitRequestPath(path: string): SplitPath | undefined {
  if (!path.startsWith("/")) return undefined;
  const segments = path.slice(1).split("/");
  const last = segments[segments.length - 1] ?? "";
  const colon = last.lastIndexOf(":");
  if (colon < 0) return { segments, verb: undefined, segmentsBeforeVerb: segments };
  const segmentsBeforeVerb = segments.slice();
  segmentsBeforeVerb[segments.length - 1] = last.slice(0, colon);
  return { segments, verb: last.slice(colon + 1), segmentsBeforeVerb };
}

/** Variables captured by a match, keyed by dotted field path, percent-decoded per 4.3. */
export type PathVariables = ReadonlyMap<string, string>;

/**
 * Matches a split request path; undefined when it does not match. Throws INVALID_ARGUMENT
 * for a matching path whose captured value has a malformed percent-escape.
 */
export function matchPathTemplate(template: PathTemplate, path: SplitPath): PathVariables | undefined {
  let request: readonly string[];
  if (template.verb === undefined) request = path.segments;
  else if (path.verb === template.verb) request = path.segmentsBeforeVerb;
  else return undefined;
  const { segments } = template;
  const deep = segments[segments.length - 1]?.kind === "deep-wildcard";
  if (deep ? request.length < segments.length - 1 : request.length !== segments.length) return undefined;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as TemplateSegment;
    const actual = request[i];
    if (segment.kind === "literal") {
      if (actual !== segment.value) return undefined;
    } else if (segment.kind === "wildcard" && (actual === undefined || actual === "")) {
      // "*" is exactly one non-empty segment: an empty resource id never matches.
      return undefined;
    }
  }
  const captured = new Map<string, string>();
  for (const v of template.variables) {
    const end = v.end === segments.length && deep ? request.length : v.end;
    const raw = request.slice(v.start, end).join("/");
    captured.set(v.fieldPath.join("."), decodeCapture(raw, v.singleSegment));
  }
  return captured;
}

// 4.3: single-segment variables are decoded fully; multi-segment ones keep %2F so that a
// decoded "/" can never be confused with a segment separator.
function decodeCapture(raw: string, singleSegment: boolean): string {
  try {
    if (singleSegment) return decodeURIComponent(raw);
    return raw
      .split(/(%2F)/i)
      .map((part, i) => (i % 2 === 1 ? part : decodeURIComponent(part)))
      .join("");
  } catch {
    throw new ConnectError(`malformed percent-encoding in path: "${raw}"`, Code.InvalidArgument);
  }
}

/** A key equal for two templates exactly when they match the same paths (conflict check). */
export function templateShape(template: PathTemplate): string {
  const parts = template.segments.map((s) =>
    s.kind === "literal" ? `=${s.value}` : s.kind === "wildcard" ? "*" : "**",
  );
  return `/${parts.join("/")}${template.verb === undefined ? "" : `:${template.verb}`}`;
}
