import type { NameResult } from "../../domain/resource-names.js";

// Names of the hosting resources: `accounts/{a}/projects/{p}` and
// `accounts/{a}/projects/{p}/resources/{r}`, read as strictly as the campaign names.

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface ProjectName {
  accountId: string;
  projectId: string;
}

export interface ResourceName extends ProjectName {
  resourceId: string;
}

function segments(name: string, words: readonly string[]): string[] | undefined {
  const parts = name.split("/");
  if (parts.length !== words.length * 2) return undefined;
  const ids: string[] = [];
  for (const [index, word] of words.entries()) {
    const id = parts[index * 2 + 1] as string;
    if (parts[index * 2] !== word || !SEGMENT.test(id)) return undefined;
    ids.push(id);
  }
  return ids;
}

export function parseProjectName(name: string): NameResult<ProjectName> {
  const ids = segments(name, ["accounts", "projects"]);
  return ids ? { ok: true, value: { accountId: ids[0] as string, projectId: ids[1] as string } } : { ok: false };
}

export function parseResourceName(name: string): NameResult<ResourceName> {
  const ids = segments(name, ["accounts", "projects", "resources"]);
  if (!ids) return { ok: false };
  return {
    ok: true,
    value: { accountId: ids[0] as string, projectId: ids[1] as string, resourceId: ids[2] as string },
  };
}
