import { type Browser, chromium } from "playwright-core";

/** Debian's chromium: no browser is downloaded here; .ci/run installs it (apt-get). */
export const CHROMIUM = "/usr/bin/chromium";

// Headless, and nothing that reaches for the network on its own (updates, sync, QUIC probes).
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The browser every Chromium test drives. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}
