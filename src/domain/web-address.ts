// Steam's web flow takes the buyer's IPv4 address (reference 3.5: `ipaddress`, "user IPv4
// x.x.x.x"); it is expected to be the address that opens the approval page. An IPv4 client seen
// on a dual-stack socket (`::ffff:a.b.c.d`) is that IPv4 address; a pure IPv6 client has none.

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAPPED = /^::ffff:/i;

/** The dotted IPv4 address a web order is opened for, or undefined when the client has none. */
export function webIpv4Address(clientAddress: string): string | undefined {
  const address = clientAddress.replace(MAPPED, "");
  const octets = IPV4.exec(address);
  if (!octets) return undefined;
  return octets.slice(1).every((octet) => Number(octet) <= 255 && (octet === "0" || !octet.startsWith("0")))
    ? address
    : undefined;
}
