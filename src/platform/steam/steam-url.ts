// Steam URLs are `<base>/<Interface>/<Method>/v<N>/` (reference 1.1). The base may carry a path
// (the simulator serves the store under /store), so it is joined, never replaced.

export function steamUrl(base: string, path: string, query?: Readonly<Record<string, string>>): URL {
  const url = new URL(path, base.endsWith("/") ? base : `${base}/`);
  for (const [name, value] of Object.entries(query ?? {})) url.searchParams.set(name, value);
  return url;
}
