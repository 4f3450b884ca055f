// Times in list filters (AIP-160) are RFC 3339, as the wire's Timestamps are written.

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** `value` as a time; what `refuse` makes of the reason when it is not an RFC 3339 timestamp. */
export function readRfc3339(value: string, refuse: (why: string) => Error): Date {
  const time = new Date(value);
  if (!RFC3339.test(value) || Number.isNaN(time.getTime())) throw refuse(`"${value}" is not an RFC 3339 time`);
  return time;
}
