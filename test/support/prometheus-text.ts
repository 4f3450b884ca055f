/** Samples of a Prometheus text exposition, keyed `name{label="value",...}` as exposed. */
export type Samples = Map<string, number>;

export function parsePrometheusText(text: string): Samples {
  const samples: Samples = new Map();
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const space = line.lastIndexOf(" ");
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** A sample's value (0 when absent), labels given in any order. */
export function sample(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels);
  for (const [key, value] of samples) {
    const brace = key.indexOf("{");
    const keyName = brace < 0 ? key : key.slice(0, brace);
    if (keyName !== name) continue;
    const body = brace < 0 ? "" : key.slice(brace + 1, -1);
    const have = new Map([...body.matchAll(/([a-zA-Z_]+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (have.size === wanted.length && wanted.every(([k, v]) => have.get(k) === v)) return value;
  }
  return 0;
}

/** Whether any sample of `name` is exposed. */
export function exposes(samples: Samples, name: string): boolean {
  return [...samples.keys()].some((key) => key === name || key.startsWith(`${name}{`));
}
