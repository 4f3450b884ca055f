import { describe, expect, it } from "vitest";
import { statementTexts } from "../../src/store/statement-texts.js";

// A statement as Prisma's `Sql` is one: its chunks, and a text joined from them at every read
// (counted here).
function statement(strings: string[]) {
  const query = {
    strings,
    reads: 0,
    get text() {
      query.reads += 1;
      return strings.reduce((text, chunk, i) => `${text}$${i}${chunk}`);
    },
  };
  return query;
}

describe("statementTexts", () => {
  it("gives the text first built for a set of chunks again, without building it", () => {
    const textOf = statementTexts();
    const first = statement(["SELECT * FROM purchases WHERE id = ", " AND state = ", ""]);
    const again = statement(["SELECT * FROM purchases WHERE id = ", " AND state = ", ""]);
    const text = textOf(first);
    expect(text).toBe("SELECT * FROM purchases WHERE id = $1 AND state = $2");
    expect(textOf(again)).toBe(text);
    expect(again.reads).toBe(0);
  });

  it("tells apart texts that share their first chunk, or differ in their number of chunks", () => {
    const textOf = statementTexts();
    const texts = [
      ["SELECT id FROM offers WHERE campaign_id = ", ""],
      ["SELECT id FROM offers WHERE campaign_id = ", " AND active"],
      ["SELECT id FROM offers WHERE id IN (", ", ", ")"],
      ["SELECT id FROM offers WHERE id IN (", ", ", ", ", ")"],
    ].map((strings) => statement(strings));
    const first = texts.map(textOf);
    expect(first).toEqual([
      "SELECT id FROM offers WHERE campaign_id = $1",
      "SELECT id FROM offers WHERE campaign_id = $1 AND active",
      "SELECT id FROM offers WHERE id IN ($1, $2)",
      "SELECT id FROM offers WHERE id IN ($1, $2, $3)",
    ]);
    expect(texts.map((query) => textOf(statement([...query.strings])))).toEqual(first);
  });

  it("finds chunks equal in content that are other strings (joined from nested fragments)", () => {
    const textOf = statementTexts();
    const where = ["WHERE", "id = "].join(" ");
    textOf(statement(["SELECT 1 FROM links ", where, ""]));
    const nested = statement(["SELECT 1 FROM links ", ["WHERE", "id = "].join(" "), ""]);
    expect(textOf(nested)).toBe("SELECT 1 FROM links $1WHERE id = $2");
    expect(nested.reads).toBe(0);
  });

  it("builds the texts past its limit at every call, and keeps giving those it kept", () => {
    const textOf = statementTexts(1);
    textOf(statement(["SELECT 1"]));
    const past = statement(["SELECT ", ""]);
    expect(textOf(past)).toBe("SELECT $1");
    expect(textOf(past)).toBe("SELECT $1");
    expect(past.reads).toBe(2);
    const kept = statement(["SELECT 1"]);
    expect(textOf(kept)).toBe("SELECT 1");
    expect(kept.reads).toBe(0);
  });
});
