import { isIPv6 } from "node:net";

/**
 * The block one party controls, for counting failures per party: an IPv4 address is itself; an
 * IPv6 address counts as its /64, the block a single host or subscriber is usually given (and
 * can rotate through at will), so a stranger cannot escape a failure limit by changing address
 * within it. Anything else (e.g. empty) is returned as it is.
 */
export function addressGroup(address: string): string {
  const bare = address.split("%")[0] ?? "";
  if (!isIPv6(bare)) return address;
  // An IPv4 client on a dual-stack socket is its IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return mapped[1];
  const [head = "", tail] = bare.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === undefined || tail === "" ? [] : tail.split(":");
  // A trailing dotted IPv4 part fills two of the eight 16-bit groups.
  const width = (groups: string[]) => groups.reduce((n, group) => n + (group.includes(".") ? 2 : 1), 0);
  const zeros = Array.from({ length: 8 - width(left) - width(right) }, () => "0");
  const prefix = [...left, ...zeros, ...right].slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(":")}::/64`;
}
