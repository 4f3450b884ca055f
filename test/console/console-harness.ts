import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { CHROMIUM } from "../support/chromium.js";

// What the console's browser test needs besides the service: the console built afresh into a
// folder of its own (as `npm run build` does into dist/console), Chromium, axe-core, screenshots.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/**
 * Skips only where Chromium is missing and nothing requires it; with REQUIRE_CHROMIUM=1 (set by
 * .ci/run) or CI=true the test runs and fails at launch instead.
 */
export function chromiumRequiredOrPresent(): boolean {
  return existsSync(CHROMIUM) || process.env.REQUIRE_CHROMIUM === "1" || process.env.CI === "true";
}

/** Builds the console with its own Vite config into a fresh folder; returns the folder. */
export async function buildConsole(): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), "console-build-"));
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  await run(process.execPath, [vite, "build", "--config", "console/vite.config.ts", "--outDir", outDir], {
    cwd: ROOT,
    timeout: 180_000,
  });
  return outDir;
}

const AXE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules).
 * The script is evaluated through the DevTools protocol, which the page's CSP does not govern:
 * the page itself still runs nothing but its own files.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as {
      axe: { run: (context: unknown, options: object) => Promise<unknown> };
      document: unknown;
    };
    const result = (await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    })) as { violations: AxeViolation[] };
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/** A full-page screenshot into test-results/ (docs/images/ holds copies for docs/console.md). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir("test-results", { recursive: true });
  await page.screenshot({ path: `test-results/console-${name}.png`, fullPage: true });
}
