import { canonicalData, fingerprint } from "../../../lib/spam/evidence";

describe("duplicate fingerprint", () => {
  test("normalized: key order, case, surrounding and repeated white space do not matter", () => {
    const a = { email: "Ada@Example.com", message: "Hello   there " };
    const b = { message: " hello there", email: "ada@example.com" };
    expect(canonicalData(a)).toBe(canonicalData(b));
    expect(fingerprint("198.51.100.7", a)).toBe(fingerprint("198.51.100.7", b));
  });

  test("different data, another IP or list order make another fingerprint", () => {
    const a = { email: "ada@example.com", colors: ["red", "blue"] };
    expect(fingerprint("198.51.100.7", a)).not.toBe(fingerprint("198.51.100.7", { ...a, email: "bob@example.com" }));
    expect(fingerprint("198.51.100.7", a)).not.toBe(fingerprint("198.51.100.8", a));
    expect(fingerprint("198.51.100.7", a)).not.toBe(fingerprint("198.51.100.7", { ...a, colors: ["blue", "red"] }));
    // A value and a one-item list differ in shape.
    expect(fingerprint("198.51.100.7", { a: "x" })).not.toBe(fingerprint("198.51.100.7", { a: ["x"] }));
  });

  test("the fingerprint is a hash: no data is kept", () => {
    expect(fingerprint("198.51.100.7", { email: "ada@example.com" })).toMatch(/^[0-9a-f]{64}$/);
  });
});
