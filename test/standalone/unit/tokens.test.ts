import { hashPassword, verifyPassword } from "../../../lib/auth/passwords";
import { newToken, TOKEN_PREFIXES, tokenKind } from "../../../lib/auth/tokens";
import { isId, newId, safeEqual } from "../../../lib/ids";

describe("tokens", () => {
  test.each(Object.keys(TOKEN_PREFIXES) as (keyof typeof TOKEN_PREFIXES)[])(
    "%s tokens are recognised by prefix and checksum",
    (kind) => {
      const token = newToken(kind);
      expect(token.startsWith(TOKEN_PREFIXES[kind])).toBe(true);
      expect(tokenKind(token)).toBe(kind);
    },
  );

  test("every single-character typo is caught by the checksum", () => {
    const token = newToken("session");
    const prefix = TOKEN_PREFIXES.session.length;
    let caught = 0;
    for (let i = prefix; i < token.length; i++) {
      const swapped = token[i] === "a" ? "b" : "a";
      if (tokenKind(token.slice(0, i) + swapped + token.slice(i + 1)) === undefined) caught++;
    }
    expect(caught).toBe(token.length - prefix);
  });

  test("tokens are unique and carry enough randomness", () => {
    const seen = new Set(Array.from({ length: 2000 }, () => newToken("apiKey")));
    expect(seen.size).toBe(2000);
  });

  test("malformed tokens have no kind", () => {
    for (const value of ["", "inlet_ss_", "inlet_ss_short", `inlet_ss_${"!".repeat(38)}`, "Bearer x"]) {
      expect(tokenKind(value)).toBeUndefined();
    }
  });
});

describe("ids", () => {
  test("ids are prefixed by type and unguessable", () => {
    const id = newId("site");
    expect(isId("site", id)).toBe(true);
    expect(isId("webhook", id)).toBe(false);
    expect(new Set(Array.from({ length: 1000 }, () => newId("user"))).size).toBe(1000);
  });

  test("safeEqual compares whole values", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });
});

describe("passwords", () => {
  test("scrypt hashes verify the right password only and are salted", async () => {
    const a = await hashPassword("a long password", 1024);
    const b = await hashPassword("a long password", 1024);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^scrypt\$1024\$/);
    expect(await verifyPassword("a long password", a)).toBe(true);
    expect(await verifyPassword("a long passworD", a)).toBe(false);
    expect(await verifyPassword("a long password", "garbage")).toBe(false);
  });
});
