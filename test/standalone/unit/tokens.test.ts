import { newToken, TOKEN_PREFIXES, tokenKind } from "../../../lib/auth/tokens";

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
