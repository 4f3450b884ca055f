import { describe, expect, it } from "vitest";
import { addressGroup } from "../../src/server/address-group.js";

describe("addressGroup (the block failed tickets are counted against)", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:0001:0002::ffff", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["2001:db8:1::5:198.51.100.1", "2001:db8:1:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["", ""],
  ])("%s counts as %s", (address, group) => {
    expect(addressGroup(address)).toBe(group);
  });
});
