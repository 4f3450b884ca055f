import type { SteamPlatform } from "../../src/platform/steam/steam-platform.js";

/**
 * A platform whose QueryTxn gets its answer, then holds it until released: drives a sweeper to
 * a point between its platform call and its database write, so a test can act in between.
 */
export function pausedAfterQuery(steam: SteamPlatform) {
  let answered = () => {};
  let release = () => {};
  const queried = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const platform: SteamPlatform = {
    ...steam,
    async queryTxn(ref) {
      const result = await steam.queryTxn(ref);
      answered();
      await gate;
      return result;
    },
  };
  return { platform, queried, release };
}
