import { defineConfig } from "prisma/config";

// Only `prisma generate` uses this file; migrations are applied by the service itself
// (src/store/migrate.ts) so PGlite and PostgreSQL are migrated the same way.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
