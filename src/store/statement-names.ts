/**
 * Names under which the pg driver prepares a statement once per connection: later
 * runs send only its parameters, and PostgreSQL skips parsing and, once it settles on a generic
 * plan, planning. The purchase path's statements are CTEs that cost PostgreSQL far more to parse
 * and plan than to run. A text keeps its name for the life of the process (the number is the
 * order it was first seen in, so two texts never share one); past `limit` texts, the rest run
 * unnamed as before, so queries whose text varies (IN lists of every length) cannot fill the
 * server's memory with statements.
 */
export function statementNames(limit = 200): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined || names.size >= limit) return known;
    const name = `encore_${names.size + 1}`;
    names.set(sql, name);
    return name;
  };
}
