import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { promisify } from "node:util";

// The shell recipes of docs/clients.md, run as a user runs them (a Go user builds and runs the
// example, a TypeScript user installs the packed client, with the steps the page gives): each
// `<!-- recipe: name -->` is followed by a sh block, which the tests run word for word, only its
// placeholders replaced.
const run = promisify(execFile);
const CLIENTS_DOC = new URL("../../docs/clients.md", import.meta.url);

/** The sh block that follows `<!-- recipe: name -->` in docs/clients.md. */
export function docRecipe(name: string): string {
  const doc = readFileSync(CLIENTS_DOC, "utf8");
  const block = new RegExp(`<!-- recipe: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\`\\n`).exec(doc)?.[1];
  if (block === undefined) throw new Error(`docs/clients.md has no <!-- recipe: ${name} --> sh block`);
  return block;
}

export interface RecipeRun {
  /** Each placeholder the recipe names, and the value the test puts in its place. */
  placeholders: Record<string, string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Runs a recipe with `bash -e` (a failing line fails it) and returns what it printed. A
 * placeholder the recipe no longer contains is an error too: a page that drifts fails.
 */
export async function runDocRecipe(name: string, options: RecipeRun): Promise<string> {
  const recipe = docRecipe(name);
  const names = Object.keys(options.placeholders).sort((a, b) => b.length - a.length);
  for (const placeholder of names) {
    if (!recipe.includes(placeholder))
      throw new Error(`docs/clients.md recipe ${name} no longer contains ${placeholder}`);
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
