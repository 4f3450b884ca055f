import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

// The README's shell recipes for the clients, run as a user runs them (issue 11: "a Go user
// builds and runs the example ... with the steps in the README"): each `<!-- recipe: name -->`
// is followed by a sh block, which the tests run word for word, only its placeholders replaced.
const run = promisify(execFile);
const README = new URL("../../README.md", import.meta.url);

/** The sh block that follows `<!-- recipe: name -->` in README.md. */
export function readmeRecipe(name: string): string {
  const readme = readFileSync(README, "utf8");
  const block = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n`).exec(readme)?.[1];
  if (block === undefined) throw new Error(`README.md has no <!-- recipe: ${name} --> sh block`);
  return block;
}

export interface RecipeRun {
  /** Each placeholder the README names, and the value the test puts in its place. */
  placeholders: Record<string, string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Runs a recipe with `bash -e` (a failing line fails it) and returns what it printed. A
 * placeholder the recipe no longer contains is an error too: a README that drifts fails.
 */
export async function runReadmeRecipe(name: string, options: RecipeRun): Promise<string> {
  const recipe = readmeRecipe(name);
  const names = Object.keys(options.placeholders).sort((a, b) => b.length - a.length);
  for (const placeholder of names) {
    if (!recipe.includes(placeholder)) throw new Error(`README recipe ${name} no longer contains ${placeholder}`);
  }
  for (const value of Object.values(options.placeholders)) {
    // Values go into the shell text as they are: nothing there may need quoting.
    if (!/^[\w./:@-]+$/.test(value)) throw new Error(`placeholder value ${value} would need shell quoting`);
  }
  const pattern = new RegExp(
    names.map((placeholder) => placeholder.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"),
    "g",
  );
  const script = recipe.replace(pattern, (found) => options.placeholders[found] ?? found);
  const { stdout } = await run("bash", ["-e", "-c", script], {
    cwd: options.cwd,
    env: options.env,
    timeout: options.timeoutMs,
  });
  return stdout;
}
