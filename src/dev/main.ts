import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createApp } from "../app.js";
import { loadConfig } from "../config.js";
import { webFundingUri } from "../domain/web-funding.js";
import { createLogger } from "../logger.js";
import { createListener, type RequestHandler } from "../server/listener.js";
import { loadOrCreateLocalSecrets } from "../store/local-secrets.js";
import { migrate } from "../store/migrate.js";
import { openDatabase } from "../store/open-database.js";
import { updateSettings } from "../store/settings.js";
import { demoCommands } from "./demo-commands.js";
import { seedDemo } from "./seed-demo.js";
import { simControl, startSimulatorProcess } from "./simulator-process.js";
import { startStorePageServer } from "./store-page-server.js";

// `npm run dev`: the Steam simulator and the service on a fresh embedded database in a temp
// directory, a demo campaign ready to sell, and the commands that buy credit end to end.

const MIGRATIONS_DIR = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
// The build's image of a fresh database (as the service's first start loads it): no initdb, which
// takes seconds and some 890 MB (docs/deploy.md, DATA_DIR).
const EMBEDDED_DATABASE_IMAGE = fileURLToPath(new URL("../../pglite/initdb.tar.gz", import.meta.url));

async function main(): Promise<void> {
  // Undone in reverse on Ctrl-C, also when it comes while still starting.
  const undo: (() => unknown)[] = [];
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const step of undo.reverse()) await step();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());

  const sim = await startSimulatorProcess();
  undo.push(() => sim.stop());
  process.once("exit", () => sim.stop());
  const dataDir = mkdtempSync(join(tmpdir(), "encore-dev-"));
  undo.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const config = loadConfig({
    LOG_LEVEL: "warn",
    ...env,
    DATA_DIR: dataDir,
    STEAM_API_URL: sim.url,
    STEAM_STORE_URL: sim.storeUrl,
    STEAM_OPENID_URL: sim.openIdUrl,
  });
  const logger = createLogger(config.logLevel);
  const secrets = loadOrCreateLocalSecrets(dataDir);
  const database = await openDatabase({ kind: "pglite", dataDir, firstImage: EMBEDDED_DATABASE_IMAGE });
  undo.push(() => database.close());
  const sql = await database.openSqlRunner();
  await migrate(sql, MIGRATIONS_DIR).finally(() => sql.close());

  const shop = await seedDemo(database.prisma, secrets.masterKey);
  await simControl(sim.url, "/publisher-keys", {
    key: shop.publisherKey,
    apps: [{ appid: shop.appId, name: "Spacewar" }],
  });
  await simControl(sim.url, "/players", { steamid: shop.steamid });

  // Listening first, so that the funding page's origin (PUBLIC_URL, which its forms are checked
  // against) is the address the service got, PORT=0 included, unless PUBLIC_URL says otherwise.
  let handler: RequestHandler = (_req, res) => res.writeHead(503).end();
  const listener = createListener({ handler: (req, res) => handler(req, res), connections: config.connections });
  const address = await listener.listen(config.port, config.host);
  const apiUrl = `http://${address.address}:${address.port}`;
  const appConfig = env.PUBLIC_URL ? config : { ...config, publicUrl: apiUrl };
  const app = createApp({ config: appConfig, database, logger, secrets });
  handler = app.handler;
  undo.push(() => app.stop());
  undo.push(() => {
    app.beginShutdown();
    return listener.close();
  });
  app.start();
  // The browser store page on its own origin, which the operator allows (spec 8 CORS).
  const storePage = await startStorePageServer({
    simUrl: sim.url,
    config: {
      apiUrl,
      campaignKey: shop.campaignKey,
      steam: { appId: shop.appId, steamid: shop.steamid, language: "english" },
    },
  });
  undo.push(() => storePage.close());
  await updateSettings(database.prisma, { allowedOrigins: [storePage.url], updateTime: new Date() });
  process.stdout.write(`Encore Campaigns (dev) on ${apiUrl}; Steam simulator on ${sim.url}; data in ${dataDir}\n`);
  process.stdout.write(`Studio console: ${apiUrl}/console/ (sign in with the demo studio's API key)\n`);
  process.stdout.write(`Demo studio API key (account.owner of "Demo Studio"): ${shop.studioApiKey}\n`);
  process.stdout.write(`Store page (browser client, Steam played by the simulator): ${storePage.url}\n`);
  process.stdout.write(
    `Funding page (sign in through the simulator's Steam): ${webFundingUri(appConfig.publicUrl, shop.campaignKey)}\n`,
  );
  process.stdout.write(`Operator token (npm run admin): ${secrets.operatorToken}\n`);
  process.stdout.write("\nBuy credit as a player (paste into a shell):\n\n");
  process.stdout.write(`${demoCommands(apiUrl, sim.url, shop)}\n\nCtrl-C stops everything and deletes the data.\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`dev start-up failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
