import { describe, expect, it } from "vitest";
import { type Permission, permissionTable, type Role, roleHolds, roleNames } from "../../src/domain/permissions.js";

// The whole matrix, written out by hand: which of owner, admin, billing, viewer hold each
// permission. Spec 5 names the link and transfer rows; the others are our decisions (docs/roles.md).
const O = "OWNER";
const A = "ADMIN";
const B = "BILLING";
const V = "VIEWER";
const expected: Record<Permission, readonly Role[]> = {
  "encore.links.create": [O, B],
  "encore.links.get": [O, A, B, V],
  "encore.links.list": [O, A, B, V],
  "encore.links.update": [O, B],
  "encore.links.delete": [O, B],
  "encore.encores.create": [O, A],
  "encore.encores.get": [O, A, B, V],
  "encore.encores.list": [O, A, B, V],
  "encore.encores.update": [O, A],
  "encore.encores.delete": [O, A],
  "encore.funding.get": [O, B],
  "encore.offers.create": [O, A],
  "encore.offers.get": [O, A, B, V],
  "encore.offers.list": [O, A, B, V],
  "encore.offers.update": [O, A],
  "encore.offers.delete": [O, A],
  "encore.purchases.get": [O, A, B, V],
  "encore.purchases.list": [O, A, B, V],
  "encore.transfers.start": [O, A],
  "project.projects.create": [O, A],
  "project.projects.get": [O, A, B, V],
  "project.projects.list": [O, A, B, V],
  "project.projects.update": [O, A],
  "project.resources.create": [O, A],
  "project.resources.get": [O, A, B, V],
  "project.resources.list": [O, A, B, V],
  "project.resources.delete": [O, A],
  "hosting.games.create": [O, A],
  "hosting.games.get": [O, A, B, V],
  "hosting.games.list": [O, A, B, V],
  "billing.checkoutSessions.create": [O, B],
  "billing.checkoutSessions.get": [O, B],
  "billing.ledgerEntries.list": [O, B],
  "account.accounts.get": [O, A, B, V],
  "account.apiKeys.create": [O],
  "account.apiKeys.list": [O],
  "account.apiKeys.delete": [O],
  "account.members.create": [O],
  "account.members.list": [O, A],
  "account.members.update": [O],
  "account.members.delete": [O],
  "webhook.endpoints.create": [O, A],
  "webhook.endpoints.get": [O, A, B, V],
  "webhook.endpoints.list": [O, A, B, V],
  "webhook.endpoints.update": [O, A],
  "webhook.endpoints.delete": [O, A],
  "webhook.endpoints.rotateSecret": [O, A],
  "webhook.deliveries.get": [O, A, B, V],
  "webhook.deliveries.list": [O, A, B, V],
  "webhook.deliveries.redeliver": [O, A],
  "audit.auditEvents.list": [O, A],
};

const roles: Role[] = [O, A, B, V];
const permissions = Object.keys(expected) as Permission[];
const pairs = permissions.flatMap((permission) =>
  roles.map((role) => [permission, role, expected[permission].includes(role)] as const),
);

describe("the permission table (spec 5)", () => {
  it("has exactly the permissions of the expected matrix", () => {
    expect(Object.keys(permissionTable).sort()).toEqual([...permissions].sort());
  });

  it.each(pairs)("%s held by %s: %s", (permission, role, holds) => {
    expect(roleHolds(role, permission)).toBe(holds);
  });

  it("spells the roles as the spec does", () => {
    expect(roleNames).toEqual({
      OWNER: "account.owner",
      ADMIN: "account.admin",
      BILLING: "account.billing",
      VIEWER: "account.viewer",
    });
  });

  it("gives links to owner and billing; admin and viewer only read them (spec 5)", () => {
    for (const verb of ["create", "update", "delete"] as const) {
      const permission = `encore.links.${verb}` as const;
      expect(roles.filter((role) => roleHolds(role, permission))).toEqual([O, B]);
    }
    for (const verb of ["get", "list"] as const) {
      expect(roles.filter((role) => roleHolds(role, `encore.links.${verb}`))).toEqual(roles);
    }
  });

  it("gives transfers to owner and admin, deliberately not billing (spec 5)", () => {
    expect(roles.filter((role) => roleHolds(role, "encore.transfers.start"))).toEqual([O, A]);
    expect(roles.filter((role) => roleHolds(role, "project.projects.update"))).toEqual([O, A]);
    expect(roleHolds(B, "encore.transfers.start")).toBe(false);
  });

  it("gives the viewer no write anywhere", () => {
    const writes = permissions.filter((permission) => !/\.(get|list)$/.test(permission));
    expect(writes.filter((permission) => roleHolds(V, permission))).toEqual([]);
  });
});
