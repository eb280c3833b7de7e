import { isIP } from "node:net";
import { build } from "esbuild";
import fc from "fast-check";
import { ipVersion, ipv6Bytes, isAllowedAddress, refusedAddressReason } from "../../../lib/outbound/address";

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

  test.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.15.255.255",
    "172.32.0.1",
    "100.63.255.255",
    "100.128.0.1",
    "169.253.255.255",
    "192.167.1.1",
    "223.255.255.255",
    "11.0.0.1",
    "198.17.255.255",
    "198.20.0.0",
  ])("allows public IPv4 %s", (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
    expect(isAllowedAddress(address)).toBe(true);
  });

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

  test.each([
    "2606:4700:4700::1111",
    "2a00:1450:4001:80b::200e",
    "::ffff:8.8.8.8",
    "::ffff:808:808",
    "64:ff9b::8.8.8.8",
    "2002:808:808::1",
    "[2606:4700:4700::1111]",
  ])("allows global IPv6 %s", (address) => {
    expect(refusedAddressReason(address)).toBeUndefined();
  });

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

describe("ipVersion, the classifier that replaces node:net's isIP", () => {
  // Node's own answer is the specification: ipVersion must agree with it on every input.
  const agrees = (text: string) => {
    expect(ipVersion(text)).toBe(isIP(text));
  };

  test.each([
    ["::", 6],
    ["::1", 6],
    ["1::", 6],
    [":::", 0],
    ["1:2:3:4:5:6:7:8", 6],
    ["1:2:3:4:5:6:7:8:9", 0],
    ["1:2:3:4:5:6:7::", 6],
    ["::1:2:3:4:5:6:7", 6],
    ["1::2:3:4:5:6:7:8", 0],
    ["1:2:3:4:5:6:1.2.3.4", 6],
    ["1:2:3:4:5::1.2.3.4", 6],
    ["1:2:3:4:5:6::1.2.3.4", 0],
    ["1.2.3.4::", 0],
    ["::ffff:1.2.3.4", 6],
    ["::ffff:01.2.3.4", 0],
    ["::ffff:1.2.3.4%eth0", 6],
    ["1.2.3.4", 4],
    ["0.0.0.0", 4],
    ["255.255.255.255", 4],
    ["1.2.3.04", 0],
    ["01.2.3.4", 0],
    ["256.1.1.1", 0],
    ["1.2.3", 0],
    ["1.2.3.4.5", 0],
    ["1.2.3.4%eth0", 0],
    ["fe80::1%eth0", 6],
    ["fe80::1%25eth0", 6],
    ["fe80::1%a-b.c:d", 6],
    ["fe80::1%", 0],
    ["fe80::1%eth0%1", 0],
    ["fe80::1%eth 0", 0],
    ["FFFF::abcd:EF01", 6],
    ["12345::", 0],
    ["::g", 0],
    ["[::1]", 0],
    ["", 0],
    [" 1.2.3.4", 0],
    ["1.2.3.4 ", 0],
    [":: ", 0],
    ["::1\n", 0],
    ["localhost", 0],
  ])("ipVersion(%j) is %d", (text, version) => {
    expect(ipVersion(text)).toBe(version);
    agrees(text);
  });

  const hexChars = [..."0123456789abcdefABCDEF"];
  const mutationChars = [":", ".", "%", " ", ...hexChars, "g", "G", "-", "[", "]"];
  const zoneChars = [..."0123456789azAZ-.:%/ _"];
  const withZone = fc
    .tuple(fc.ipV6(), fc.string({ unit: fc.constantFrom(...zoneChars), maxLength: 8 }))
    .map(([address, zone]) => `${address}%${zone}`);
  const mutated = (base: fc.Arbitrary<string>) =>
    fc
      .tuple(base, fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.constantFrom(...mutationChars)), { minLength: 1, maxLength: 4 }))
      .map(([text, edits]) => {
        let out = text;
        for (const [insert, at, char] of edits) {
          const position = at % (out.length + 1);
          out = insert ? out.slice(0, position) + char + out.slice(position) : out.slice(0, position) + out.slice(position + 1);
        }
        return out;
      });
  // Address-shaped strings built from the pieces of the grammar (hex groups, dotted quads,
  // single and double colons, zone ids), so that most are valid or one piece off.
  const token = fc.oneof(
    fc.string({ unit: fc.constantFrom(...hexChars), minLength: 1, maxLength: 5 }),
    fc.constantFrom(":", ":", "::", ".", "%eth0", "%", "0", "00"),
    fc.ipV4(),
    fc.ipV4Extended(),
  );
  const tokens = fc.array(token, { maxLength: 17 }).map((pieces) => pieces.join(""));
  const group = fc.string({ unit: fc.constantFrom(...hexChars), minLength: 1, maxLength: 4 });
  const separated = fc
    .tuple(
      fc.array(
        fc.oneof(
          { arbitrary: group, weight: 12 },
          { arbitrary: fc.constant(""), weight: 1 },
          { arbitrary: fc.constantFrom("12345", "g", "1.2.3.4"), weight: 1 },
        ),
        { minLength: 5, maxLength: 10 },
      ),
      fc.option(fc.ipV4(), { nil: undefined }),
      fc.option(fc.constantFrom("%eth0", "%", "%1.2", "% "), { nil: "" }),
    )
    .map(([groups, quad, zone]) => (quad === undefined ? groups : [...groups, quad]).join(":") + zone);
  const property = (arbitrary: fc.Arbitrary<string>, numRuns: number) =>
    fc.assert(
      fc.property(arbitrary, (text) => ipVersion(text) === isIP(text)),
      { numRuns },
    );

  test("agrees with isIP on IPv4 addresses", () => {
    property(fc.ipV4(), 2000);
    property(fc.ipV4Extended(), 5000);
  });

  test("agrees with isIP on IPv6 addresses, with and without zone ids", () => {
    property(fc.ipV6(), 5000);
    property(withZone, 5000);
  });

  test("agrees with isIP on mutated addresses", () => {
    property(mutated(fc.oneof(fc.ipV4(), fc.ipV4Extended(), fc.ipV6(), withZone)), 20000);
  });

  test("agrees with isIP on arbitrary strings", () => {
    property(fc.string(), 5000);
    property(fc.string({ unit: "binary", maxLength: 40 }), 2000);
  });

  test("agrees with isIP on strings over an address alphabet (finds the edge cases)", () => {
    property(fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFg:.%"), minLength: 0, maxLength: 50 }), 20000);
    // Shorter and colon-heavy, so that more of them are near-misses of a valid address.
    property(fc.string({ unit: fc.constantFrom(..."01af:::.%"), maxLength: 20 }), 20000);
  });

  test("agrees with isIP on strings built from address pieces", () => {
    property(tokens, 20000);
    property(separated, 20000);
  });
});

describe("the cold-start cost", () => {
  test("the SSRF guard does not load node:net (its isIP compiles a giant IPv6 regex on first use)", async () => {
    const result = await build({
      entryPoints: ["lib/outbound/address.ts", "lib/outbound/ssrf.ts"],
      bundle: true,
      write: false,
      outdir: "out",
      platform: "node",
      format: "esm",
      metafile: true,
      minify: true,
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path));
    expect(imports.filter((path) => path === "node:net" || path === "net")).toEqual([]);
    expect(result.outputFiles.length).toBeGreaterThanOrEqual(2);
    for (const file of result.outputFiles) {
      expect(file.text).not.toContain('"node:net"');
      expect(file.text).not.toContain('from"net"');
    }
  });
});
