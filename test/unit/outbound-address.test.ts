import { ipv6Bytes, isAllowedAddress, refusedAddressReason } from "../../lib/outbound/address";

describe("the outbound address classifier", () => {
  test.each([
    ["0.0.0.0", "this network"],
    ["0.1.2.3", "this network"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.1.2.3", "loopback"],
    ["169.254.169.254", "link-local (includes the instance metadata address)"],
    ["169.254.0.1", "link-local (includes the instance metadata address)"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "IETF protocol assignments"],
    ["192.0.2.10", "documentation"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["198.19.255.255", "benchmarking"],
    ["198.51.100.7", "documentation"],
    ["203.0.113.9", "documentation"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved (includes broadcast)"],
    ["255.255.255.255", "reserved (includes broadcast)"],
  ])("refuses IPv4 %s (%s)", (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  test.each(["8.8.8.8", "1.1.1.1", "93.184.216.34", "172.15.255.255", "172.32.0.1", "100.63.255.255", "100.128.0.1", "169.253.255.255", "192.167.1.1", "223.255.255.255", "11.0.0.1", "198.17.255.255", "198.20.0.0"])(
    "allows public IPv4 %s",
    (address) => {
      expect(refusedAddressReason(address)).toBeUndefined();
      expect(isAllowedAddress(address)).toBe(true);
    },
  );

  test.each([
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf:ffff::1", "link-local"],
    ["fc00::1", "unique-local"],
    ["fd12:3456:789a::1", "unique-local"],
    ["fec0::1", "site-local (deprecated)"],
    ["ff02::1", "multicast"],
    ["100::1", "discard-only"],
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
    ["::127.0.0.1", "IPv4-compatible (deprecated)"],
    ["::8.8.8.8", "IPv4-compatible (deprecated)"],
    ["64:ff9b:1::1", "local-use NAT64"],
    ["4000::1", "not a global unicast address"],
  ])("refuses IPv6 %s (%s)", (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  test.each([
    ["::ffff:127.0.0.1", "loopback (embedded in IPv6)"],
    ["::ffff:7f00:1", "loopback (embedded in IPv6)"],
    ["::ffff:169.254.169.254", "link-local (includes the instance metadata address) (embedded in IPv6)"],
    ["::ffff:a9fe:a9fe", "link-local (includes the instance metadata address) (embedded in IPv6)"],
    ["::ffff:10.0.0.1", "private (embedded in IPv6)"],
    ["::FFFF:192.168.0.1", "private (embedded in IPv6)"],
    ["0:0:0:0:0:ffff:100.64.0.1", "carrier-grade NAT (embedded in IPv6)"],
    ["64:ff9b::10.0.0.1", "private (embedded in IPv6)"],
    ["64:ff9b::a9fe:a9fe", "link-local (includes the instance metadata address) (embedded in IPv6)"],
    ["2002:7f00:1::", "loopback (embedded in 6to4)"],
    ["2002:c0a8:0101::1", "private (embedded in 6to4)"],
  ])("judges IPv6 %s by the IPv4 address it embeds (%s)", (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  test.each(["2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8", "::ffff:808:808", "64:ff9b::8.8.8.8", "2002:808:808::1", "[2606:4700:4700::1111]"])(
    "allows global IPv6 %s",
    (address) => {
      expect(refusedAddressReason(address)).toBeUndefined();
    },
  );

  test("refuses text that is not an address", () => {
    for (const text of ["", "localhost", "example.com", "1.2.3", "1.2.3.256", "::g", "01.2.3.4"]) {
      expect(refusedAddressReason(text)).toBeDefined();
    }
  });

  test("expands IPv6 text to 16 bytes", () => {
    expect(ipv6Bytes("::1")).toEqual([...Array(15).fill(0), 1]);
    expect(ipv6Bytes("::ffff:1.2.3.4")).toEqual([...Array(10).fill(0), 0xff, 0xff, 1, 2, 3, 4]);
    expect(ipv6Bytes("2001:db8::8:800:200c:417a")).toEqual([
      0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0x08, 0x08, 0x00, 0x20, 0x0c, 0x41, 0x7a,
    ]);
    expect(ipv6Bytes("1::")).toEqual([0, 1, ...Array(14).fill(0)]);
    expect(ipv6Bytes("not an address")).toBeUndefined();
    expect(ipv6Bytes("1.2.3.4")).toBeUndefined();
  });
});
