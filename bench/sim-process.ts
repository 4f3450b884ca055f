import { startSteamSimulator } from "../src/sim/steam/start-steam-simulator.js";
import { stopWhen, tellBench } from "./bench-child.js";

// Child process: the loopback Steam simulator for the purchase load, apart from the service (so
// its CPU is not the service's) and from the load generator (so it never waits on its loop).
const sim = await startSteamSimulator({ port: 0 });
// Every call is remembered for tests to read; under load nobody reads them, so they are dropped.
const forget = setInterval(() => void sim.control.clearCalls().catch(() => {}), 2_000);
tellBench({ type: "ready", url: sim.url, storeUrl: sim.storeUrl });
stopWhen(async () => {
  clearInterval(forget);
  await sim.close();
});
