import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config.js";

// What an operator or a newcomer reads when a setting is wrong (DESIGN 4): one line, every bad
// or missing setting named in it, each with what it must be.

const POSTGRES = "postgresql://postgres@127.0.0.1:5432/encore";
const KEY = Buffer.alloc(32, 7).toString("base64");

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("the configuration was accepted");
}

describe("loadConfig", () => {
  it.each(["abc", "70000", "-1", "1.5", "8080x"])("says what a port is when PORT=%s", (value) => {
    expect(refusal({ PORT: value })).toBe("invalid configuration: PORT must be a port number from 0 to 65535");
  });

  it("names every setting DATABASE_URL requires at once, with the command that makes one", () => {
    expect(refusal({ DATABASE_URL: POSTGRES })).toBe(
      "invalid configuration: ENCORE_MASTER_KEY is required when DATABASE_URL is set (make one with: openssl rand -base64 32); " +
        "OPERATOR_TOKEN is required when DATABASE_URL is set (make one with: openssl rand -base64 32)",
    );
  });

  it("names the missing settings beside another bad one, in one line", () => {
    const line = refusal({ DATABASE_URL: POSTGRES, PORT: "http", LOG_LEVEL: "loud" });
    expect(line.split("\n")).toHaveLength(1);
    for (const name of ["PORT", "LOG_LEVEL", "ENCORE_MASTER_KEY", "OPERATOR_TOKEN"]) expect(line).toContain(`${name} `);
  });

  it("signs players in through Steam's OpenID provider unless STEAM_OPENID_URL says, an http(s) URL", () => {
    expect(loadConfig({}).steam.openIdUrl).toBe("https://steamcommunity.com/openid/login");
    expect(loadConfig({ STEAM_OPENID_URL: "http://127.0.0.1:4780/openid/login" }).steam.openIdUrl).toBe(
      "http://127.0.0.1:4780/openid/login",
    );
    expect(refusal({ STEAM_OPENID_URL: "ftp://steamcommunity.com/openid/login" })).toMatch(
      /^invalid configuration: STEAM_OPENID_URL /,
    );
    expect(refusal({ STEAM_OPENID_URL: "steamcommunity.com" })).toMatch(/^invalid configuration: STEAM_OPENID_URL /);
  });

  it("reads an empty variable as unset, never as zero", () => {
    expect(loadConfig({ PORT: "" }).port).toBe(8080);
    expect(loadConfig({ DATABASE_URL: "" }).database.kind).toBe("pglite");
  });

  it("serves metrics on 9464 with DATABASE_URL, none on the embedded database, unless METRICS_PORT says", () => {
    const production = { DATABASE_URL: POSTGRES, ENCORE_MASTER_KEY: KEY, OPERATOR_TOKEN: "t".repeat(32) };
    expect(loadConfig(production).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(loadConfig({ ...production, HOST: "0.0.0.0" }).metrics).toEqual({ port: 9464, host: "0.0.0.0" });
    expect(loadConfig({ ...production, METRICS_PORT: "off" }).metrics).toBeUndefined();
    // A local `npm start` on the embedded database: a second one beside it finds no port taken.
    expect(loadConfig({}).metrics).toBeUndefined();
    expect(loadConfig({ METRICS_PORT: "9464" }).metrics).toEqual({ port: 9464, host: "127.0.0.1" });
    expect(loadConfig({ METRICS_PORT: "9100", METRICS_HOST: "10.0.0.5" }).metrics).toEqual({
      port: 9100,
      host: "10.0.0.5",
    });
    expect(refusal({ METRICS_PORT: "on" })).toBe(
      "invalid configuration: METRICS_PORT must be a port number from 0 to 65535, or off",
    );
  });

  it("reads PROXY_PROTOCOL_FROM as addresses and CIDR ranges, and refuses anything else by name", () => {
    expect(loadConfig({}).proxyProtocolFrom).toEqual([]);
    expect(loadConfig({ PROXY_PROTOCOL_FROM: "172.28.0.10,10.0.0.0/8,fd00::/8" }).proxyProtocolFrom).toEqual([
      "172.28.0.10",
      "10.0.0.0/8",
      "fd00::/8",
    ]);
    for (const value of ["proxy.local", "10.0.0.0/33", "10.0.0.1, 10.0.0.2", "0x7f.1", "10.0.0.0/8/8"]) {
      expect(refusal({ PROXY_PROTOCOL_FROM: value })).toBe(
        "invalid configuration: PROXY_PROTOCOL_FROM must list addresses or CIDR ranges (comma separated)",
      );
    }
  });

  it("reads PUBLIC_URL as an origin, defaults it to localhost on PORT, and refuses anything more by name", () => {
    expect(loadConfig({}).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PORT: "9000" }).publicUrl).toBe("http://localhost:9000");
    expect(loadConfig({ PUBLIC_URL: "https://fund.example.com" }).publicUrl).toBe("https://fund.example.com");
    expect(loadConfig({ PUBLIC_URL: "https://fund.example.com/" }).publicUrl).toBe("https://fund.example.com");
    expect(loadConfig({ PUBLIC_URL: "http://127.0.0.1:8443" }).publicUrl).toBe("http://127.0.0.1:8443");
    for (const value of [
      "fund.example.com",
      "ftp://fund.example.com",
      "https://fund.example.com/encore",
      "https://fund.example.com/?next=x",
      "https://fund.example.com?",
      "https://fund.example.com#top",
      "https://user:secret@fund.example.com",
      "javascript:alert(1)",
    ]) {
      expect(refusal({ PUBLIC_URL: value })).toBe(
        "invalid configuration: PUBLIC_URL must be an absolute http(s) URL without path, query or fragment (e.g. https://fund.example.com)",
      );
    }
  });
});
