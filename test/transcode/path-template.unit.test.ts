import { describe, expect, it } from "vitest";
import {
  matchPathTemplate,
  parsePathTemplate,
  splitRequestPath,
  templateShape,
} from "../../src/transcode/path-template.js";

const match = (template: string, path: string) => {
  const split = splitRequestPath(path);
  if (split === undefined) return undefined;
  const vars = matchPathTemplate(parsePathTemplate(template), split);
  return vars === undefined ? undefined : Object.fromEntries(vars);
};

describe("parsePathTemplate", () => {
  it.each([
    ["/v1/public/funding:get", "/=v1/=public/=funding:get", "get", []],
    ["/v1/{name=accounts/*/campaigns/*}", "/=v1/=accounts/*/=campaigns/*", undefined, ["name"]],
    ["/v1/{parent=accounts/*}/campaigns", "/=v1/=accounts/*/=campaigns", undefined, ["parent"]],
    ["/v1/{campaign.name=accounts/*/campaigns/*}", "/=v1/=accounts/*/=campaigns/*", undefined, ["campaign.name"]],
    [
      "/v1/{name=accounts/*/campaigns/*}:retryVerification",
      "/=v1/=accounts/*/=campaigns/*:retryVerification",
      "retryVerification",
      ["name"],
    ],
    ["/v1/messages/{message_id}", "/=v1/=messages/*", undefined, ["message_id"]],
    ["/v1/{name=operations/**}:cancel", "/=v1/=operations/**:cancel", "cancel", ["name"]],
    ["/v1/*/items/**", "/=v1/*/=items/**", undefined, []],
    ["/v1/{name=accounts/*/campaigns/*/funding}", "/=v1/=accounts/*/=campaigns/*/=funding", undefined, ["name"]],
  ])("%s", (source, shape, verb, vars) => {
    const t = parsePathTemplate(source);
    expect(templateShape(t)).toBe(shape);
    expect(t.verb).toBe(verb);
    expect(t.variables.map((v) => v.fieldPath.join("."))).toEqual(vars);
  });

  it.each([
    ["v1/no-slash", "must start with /"],
    ["/v1/{name", "unclosed"],
    ["/v1/{a={b}}", "nest"],
    ["/v1/**/tail", "last segment"],
    ["/v1/{1bad}", "bad field path"],
    ["/v1/{x}/{x}", "bound twice"],
    ["/v1/{x=}", "bad segment"],
    ["/v1/a:b/c", "bad verb"],
    ["/v1/a{b}", "unexpected"],
  ])("rejects %s", (source, why) => {
    expect(() => parsePathTemplate(source)).toThrow(why);
  });
});

describe("matchPathTemplate", () => {
  it.each([
    ["/v1/{parent=accounts/*}/campaigns", "/v1/accounts/42/campaigns", { parent: "accounts/42" }],
    ["/v1/{name=accounts/*/campaigns/*}", "/v1/accounts/a/campaigns/c", { name: "accounts/a/campaigns/c" }],
    [
      "/v1/{campaign.name=accounts/*/campaigns/*}",
      "/v1/accounts/a/campaigns/c",
      { "campaign.name": "accounts/a/campaigns/c" },
    ],
    [
      "/v1/{name=accounts/*/campaigns/*}:retryVerification",
      "/v1/accounts/a/campaigns/c:retryVerification",
      { name: "accounts/a/campaigns/c" },
    ],
    ["/v1/public/funding:get", "/v1/public/funding:get", {}],
    ["/v1/messages/{id}", "/v1/messages/a%2Fb%20c", { id: "a/b c" }],
    ["/v1/{name=accounts/*}", "/v1/accounts/a%2Fb%20c", { name: "accounts/a%2Fb c" }],
    ["/v1/{name=accounts/*}", "/v1/accounts/a%2fb", { name: "accounts/a%2fb" }],
    ["/v1/{name=operations/**}", "/v1/operations/a/b/c", { name: "operations/a/b/c" }],
    ["/v1/{name=operations/**}", "/v1/operations", { name: "operations" }],
    ["/v1/{name=operations/**}:cancel", "/v1/operations/x/y:cancel", { name: "operations/x/y" }],
    [
      "/v1/{name=accounts/*/campaigns/*/funding}",
      "/v1/accounts/a/campaigns/c/funding",
      { name: "accounts/a/campaigns/c/funding" },
    ],
    // As grpc-gateway: a template without a verb reads ":x" as part of the last segment (the
    // route table tries templates with a verb first, so a real verb is never swallowed).
    ["/v1/{name=accounts/*/campaigns/*}", "/v1/accounts/a/campaigns/c:x", { name: "accounts/a/campaigns/c:x" }],
  ])("%s on %s", (template, path, expected) => {
    expect(match(template, path)).toEqual(expected);
  });

  it.each([
    ["/v1/{parent=accounts/*}/campaigns", "/v1/accounts/campaigns"],
    ["/v1/{parent=accounts/*}/campaigns", "/v1/accounts//campaigns"],
    ["/v1/{parent=accounts/*}/campaigns", "/v1/accounts/42/campaigns/"],
    ["/v1/{name=accounts/*/campaigns/*}:retryVerification", "/v1/accounts/a/campaigns/c"],
    ["/v1/{name=accounts/*/campaigns/*}:retryVerification", "/v1/accounts/a/campaigns/c:other"],
    ["/v1/public/funding:get", "/v1/public/funding"],
    ["/v1/public/funding:get", "/v1/public/:get"],
    ["/v1/public/funding:get", "v1/public/funding:get"],
    ["/v1/messages/{id}", "/v1/messages"],
  ])("%s does not match %s", (template, path) => {
    expect(match(template, path)).toBeUndefined();
  });

  it("rejects a malformed escape in a captured value", () => {
    expect(() => match("/v1/messages/{id}", "/v1/messages/%zz")).toThrow(/percent-encoding/);
  });
});
