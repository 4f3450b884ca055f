// `npm run steam-sim`: the Steam simulator as a process. Prints its base URLs so a demo can set
// STEAM_API_URL / STEAM_STORE_URL / STEAM_OPENID_URL; stops on SIGINT/SIGTERM.

import { Command, InvalidArgumentError } from "commander";
import { startSteamSimulator } from "./start-steam-simulator.js";

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError("not a port number");
  return port;
}

const options = new Command("steam-sim")
  .description("Offline simulator of the Steam partner Web API (docs/steam-simulator.md)")
  .option("--port <port>", "port to listen on (0 = any free port)", parsePort, 4780)
  .option("--host <host>", "address to bind", "127.0.0.1")
  .option("--public-url <url>", "origin browsers reach it at (sign-in and checkout pages); default the listening URL")
  .parse()
  .opts<{ port: number; host: string; publicUrl?: string }>();

const simulator = await startSteamSimulator(options);
process.stdout.write(`steam simulator listening on ${simulator.url}\n`);
// STEAM_STORE_URL last: src/dev/simulator-process.ts reads up to it.
process.stdout.write(
  `STEAM_API_URL=${simulator.url}\nSTEAM_OPENID_URL=${simulator.openIdUrl}\nSTEAM_STORE_URL=${simulator.storeUrl}\n`,
);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    simulator.close().then(() => process.exit(0));
  });
}
