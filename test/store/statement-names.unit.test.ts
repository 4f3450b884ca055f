import { describe, expect, it } from "vitest";
import { statementNames } from "../../src/store/statement-names.js";

describe("statementNames", () => {
  it("gives a text the same name every time, and another text another name", () => {
    const name = statementNames();
    const first = name({ sql: "SELECT 1" });
    expect(first).toBe("encore_1");
    expect(name({ sql: "SELECT 2" })).toBe("encore_2");
    expect(name({ sql: "SELECT 1" })).toBe(first);
  });

  it("leaves texts past the limit unnamed (PostgreSQL's unnamed statement), and keeps naming those it named", () => {
    const name = statementNames(2);
    name({ sql: "a" });
    name({ sql: "b" });
    expect(name({ sql: "c" })).toBe("");
    expect(name({ sql: "c" })).toBe("");
    expect(name({ sql: "b" })).toBe("encore_2");
  });
});
