import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";

// DATABASE_PREPARED_STATEMENTS (docs/deploy.md): on unless set off, for PostgreSQL.
const postgres = {
  DATABASE_URL: "postgresql://encore@127.0.0.1/encore",
  ENCORE_MASTER_KEY: Buffer.alloc(32, 1).toString("base64"),
  OPERATOR_TOKEN: "t".repeat(32),
};

describe("DATABASE_PREPARED_STATEMENTS", () => {
  it("prepares statements unless set off", () => {
    expect(loadConfig(postgres).database).toMatchObject({ kind: "postgres", preparedStatements: true });
    expect(loadConfig({ ...postgres, DATABASE_PREPARED_STATEMENTS: "on" }).database).toMatchObject({
      preparedStatements: true,
    });
    expect(loadConfig({ ...postgres, DATABASE_PREPARED_STATEMENTS: "off" }).database).toMatchObject({
      preparedStatements: false,
    });
  });

  it("refuses anything but on and off, naming the setting", () => {
    expect(() => loadConfig({ ...postgres, DATABASE_PREPARED_STATEMENTS: "false" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...postgres, DATABASE_PREPARED_STATEMENTS: "false" })).toThrow(
      /^invalid configuration: DATABASE_PREPARED_STATEMENTS /,
    );
  });
});
