/**
 * The pg adapter's `statementNameGenerator`: the name under which each connection prepares a
 * statement text once, so later runs send only its parameters, and PostgreSQL skips parsing and,
 * once it settles on a generic plan, planning (the purchase path's statements are CTEs that cost
 * far more to parse and plan than to run). A text keeps its name for the life of the process (the
 * number is the order it was first seen in, so two texts never share one). Past `limit` texts the
 * rest get the empty name, PostgreSQL's unnamed statement, parsed at every run: queries whose text
 * varies (IN lists of every length) cannot fill the server's memory with statements.
 */
export function statementNames(limit = 200): (query: { sql: string }) => string {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined) return known;
    if (names.size >= limit) return "";
    const name = `encore_${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}
