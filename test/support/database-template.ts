import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { migrate } from "../../src/store/migrate.js";
import { type DatabaseTemplate, databaseUrl, MIGRATIONS_DIR, uniqueDatabaseName } from "./test-database.js";

/**
 * The integration project's globalSetup: migrates one template database for the whole run,
 * which createTestDatabase copies for each test file instead of creating and migrating a
 * database per file. On PostgreSQL (TEST_DATABASE_URL, else a container when a Docker engine
 * answers) the template is a database of the run's own; otherwise a dumped PGlite data folder.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const container = process.env.TEST_DATABASE_URL ? undefined : await startContainer();
  const serverUrl = process.env.TEST_DATABASE_URL ?? container?.url;
  if (serverUrl) {
    const template = await createPostgresTemplate(serverUrl);
    project.provide("databaseTemplate", template);
    return async () => {
      await dropDatabase(serverUrl, template.name);
      await container?.stop();
    };
  }
  // CI sets this: tests that need several connections must run, never fall back and skip.
  if (process.env.REQUIRE_POSTGRES) throw new Error("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not");
  process.stderr.write("tests: no TEST_DATABASE_URL and no Docker engine: using PGlite\n");
  const dir = mkdtempSync(join(tmpdir(), "encore-test-template-"));
  project.provide("databaseTemplate", await createPgliteTemplate(join(dir, "template.tar")));
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function createPostgresTemplate(serverUrl: string): Promise<DatabaseTemplate & { kind: "postgres" }> {
  const name = uniqueDatabaseName("encore_template");
  await onServer(serverUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  // The session ends before any copy: CREATE DATABASE ... TEMPLATE refuses a template in use.
  await onServer(databaseUrl(serverUrl, name), (client) =>
    migrate(
      {
        exec: async (text) => void (await client.query(text)),
        query: async <Row>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as Row[],
        close: async () => {},
      },
      MIGRATIONS_DIR,
    ),
  );
  return { kind: "postgres", serverUrl, name };
}

function dropDatabase(serverUrl: string, name: string): Promise<unknown> {
  return onServer(serverUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

async function onServer<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createPgliteTemplate(dumpFile: string): Promise<DatabaseTemplate & { kind: "pglite" }> {
  const lite = new PGlite();
  try {
    await migrate(
      {
        exec: async (text) => void (await lite.exec(text)),
        query: async <Row>(text: string, params: unknown[] = []) => (await lite.query<Row>(text, params)).rows,
        close: async () => {},
      },
      MIGRATIONS_DIR,
    );
    // Uncompressed: a test file loads it in less CPU than it would unzip it.
    const dump = await lite.dumpDataDir("none");
    writeFileSync(dumpFile, Buffer.from(await dump.arrayBuffer()));
  } finally {
    await lite.close();
  }
  return { kind: "pglite", dumpFile };
}

/** One PostgreSQL container for the run, when a container runtime answers. */
async function startContainer(): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  const { GenericContainer, Wait, getContainerRuntimeClient } = await import("testcontainers");
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const started = await new GenericContainer("postgres:16-alpine")
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: "trust" })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/ready to accept connections/, 2))
    .start();
  return {
    url: `postgresql://postgres@${started.getHost()}:${started.getMappedPort(5432)}/postgres`,
    stop: async () => void (await started.stop()),
  };
}
