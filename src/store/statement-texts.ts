/**
 * One string for each statement text the direct path sends. Prisma's `Sql` joins its
 * chunks into a new text at every `.text`, and each run then paid for that string three times:
 * building it, flattening it, and hashing it whole for the prepared-statement namer's Map (1.5 %
 * of the purchase profile, docs/performance.md "One text a statement"); pg's check that a name
 * still means its text compared it whole again. A text depends on the chunks alone, and a
 * template's chunks are the same string literals at every call, so the text first built for a
 * set of chunks is kept and given again: found by the first chunk, confirmed chunk by chunk (the
 * same literal compares by reference). Past `limit` sets of chunks (texts that vary with their
 * arguments, such as IN lists of every length) the rest are built at each call as before.
 */
export function statementTexts(limit = 500): (query: { strings: readonly string[]; text: string }) => string {
  const known = new Map<string, { strings: readonly string[]; text: string }[]>();
  let size = 0;
  return (query) => {
    const strings = query.strings;
    const first = strings[0] ?? "";
    const candidates = known.get(first);
    if (candidates !== undefined) {
      for (const candidate of candidates) if (sameChunks(candidate.strings, strings)) return candidate.text;
    }
    const text = query.text;
    if (size < limit) {
      size += 1;
      const entry = { strings: [...strings], text };
      if (candidates === undefined) known.set(first, [entry]);
      else candidates.push(entry);
    }
    return text;
  };
}

function sameChunks(kept: readonly string[], strings: readonly string[]): boolean {
  if (kept.length !== strings.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== strings[i]) return false;
  return true;
}
