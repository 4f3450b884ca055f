// The permission table (spec 5) and the roles that hold each permission. Spec 5 names the
// link, transfer and project rows; the rest are our decisions where it says "not shown",
// written out in the README's role table.

export type Role = "OWNER" | "ADMIN" | "BILLING" | "VIEWER";

/** The role names as the spec spells them. */
export const roleNames: Record<Role, string> = {
  OWNER: "account.owner",
  ADMIN: "account.admin",
  BILLING: "account.billing",
  VIEWER: "account.viewer",
};

const ALL: readonly Role[] = ["OWNER", "ADMIN", "BILLING", "VIEWER"];
const OWNER_ADMIN: readonly Role[] = ["OWNER", "ADMIN"];
const OWNER_BILLING: readonly Role[] = ["OWNER", "BILLING"];
const OWNER: readonly Role[] = ["OWNER"];

export const permissionTable = {
  // Spec 5: link permissions are held by owner and billing; admin and viewer read only.
  "encore.links.create": OWNER_BILLING,
  "encore.links.get": ALL,
  "encore.links.list": ALL,
  "encore.links.update": OWNER_BILLING,
  "encore.links.delete": OWNER_BILLING,
  // Campaigns: managed with the game (owner, admin); everyone reads.
  "encore.encores.create": OWNER_ADMIN,
  "encore.encores.get": ALL,
  "encore.encores.list": ALL,
  "encore.encores.update": OWNER_ADMIN,
  "encore.encores.delete": OWNER_ADMIN,
  // Spec 5: funding travels with billing visibility, not with the game.
  "encore.funding.get": OWNER_BILLING,
  // Offers: priced with the game (owner, admin); everyone reads.
  "encore.offers.create": OWNER_ADMIN,
  "encore.offers.get": ALL,
  "encore.offers.list": ALL,
  "encore.offers.update": OWNER_ADMIN,
  "encore.offers.delete": OWNER_ADMIN,
  "encore.purchases.get": ALL,
  "encore.purchases.list": ALL,
  // Spec 5: transfers are held by owner and admin, deliberately not billing; a one-way decision
  // that campaign update does not imply.
  "encore.transfers.start": OWNER_ADMIN,
  "project.projects.create": OWNER_ADMIN,
  "project.projects.get": ALL,
  "project.projects.list": ALL,
  "project.projects.update": OWNER_ADMIN,
  "project.resources.create": OWNER_ADMIN,
  "project.resources.get": ALL,
  "project.resources.list": ALL,
  "project.resources.delete": OWNER_ADMIN,
  "hosting.games.create": OWNER_ADMIN,
  "hosting.games.get": ALL,
  "hosting.games.list": ALL,
  "billing.checkoutSessions.create": OWNER_BILLING,
  "billing.checkoutSessions.get": OWNER_BILLING,
  "billing.ledgerEntries.list": OWNER_BILLING,
  "account.accounts.get": ALL,
  "account.apiKeys.create": OWNER,
  "account.apiKeys.list": OWNER,
  "account.apiKeys.delete": OWNER,
  "account.members.create": OWNER,
  "account.members.list": OWNER_ADMIN,
  "account.members.update": OWNER,
  "account.members.delete": OWNER,
  // Webhook endpoints are managed by owner and admin; everyone reads them (never
  // their secrets) and their deliveries.
  "webhook.endpoints.create": OWNER_ADMIN,
  "webhook.endpoints.get": ALL,
  "webhook.endpoints.list": ALL,
  "webhook.endpoints.update": OWNER_ADMIN,
  "webhook.endpoints.delete": OWNER_ADMIN,
  "webhook.endpoints.rotateSecret": OWNER_ADMIN,
  "webhook.deliveries.get": ALL,
  "webhook.deliveries.list": ALL,
  "webhook.deliveries.redeliver": OWNER_ADMIN,
  // The audit log is read by those who manage the account (owner, admin); billing and
  // viewer do not see who did what.
  "audit.auditEvents.list": OWNER_ADMIN,
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof permissionTable;

/** Whether a role holds a permission: the one check every management call goes through. */
export function roleHolds(role: Role, permission: Permission): boolean {
  return (permissionTable[permission] as readonly Role[]).includes(role);
}
