import fc from "fast-check";
import { keptAnchor, safeReturnPath } from "../../../web/src/lib/format";

/**
 * The sign-in page's `?redirect=` (web/src/lib/format.ts): only a path of the dashboard's own
 * origin is followed. The hostile values are the tricks of OWASP's Unvalidated Redirects and
 * Forwards Cheat Sheet and what it points to: the rule it cites (ASP.NET's IsLocalUrl: a local URL
 * starts with `/` but not `//` or `/\`), the parser confusions of its URL-validation section
 * (Orange Tsai's "A New Era of SSRF": whitespace, control characters, backslashes, userinfo,
 * encodings, Unicode look-alikes) and the payloads testers try first.
 */

/** Where a browser on the dashboard would go: the URL parser the dashboard's navigation uses. */
const ORIGIN = "https://app.example";
const landsOn = (path: string) => new URL(path, ORIGIN).origin;

const OWASP_TRICKS: [string, string][] = [
  // Absolute and scheme-relative URLs.
  ["an absolute URL", "https://evil.example/"],
  ["an absolute URL in capitals", "HTTPS://EVIL.EXAMPLE"],
  ["a scheme-relative URL", "//evil.example"],
  ["three slashes", "///evil.example"],
  ["four slashes", "////evil.example/"],
  ["a scheme without slashes", "https:evil.example"],
  ["a scheme with one slash", "https:/evil.example"],
  ["javascript:", "javascript:alert(document.cookie)"],
  ["data:", "data:text/html,<script>alert(1)</script>"],
  ["a bare host", "evil.example"],
  ["a bare host with a path", "evil.example/sites"],
  // Backslashes, which a browser reads as slashes in http(s) URLs.
  ["a leading backslash", "\\evil.example"],
  ["two backslashes", "\\\\evil.example"],
  ["slash then backslash (IsLocalUrl's rule)", "/\\evil.example"],
  ["backslash then slash", "\\/evil.example"],
  ["slash, backslash, slash", "/\\/evil.example/"],
  ["escaped slashes", "\\/\\/evil.example/"],
  ["a backslash inside a path", "/sites\\..\\..\\evil"],
  // Whitespace and control characters the URL parser removes or trims.
  ["a tab between the slashes (the parser drops it: //evil.example)", "/\t/evil.example"],
  ["a newline between the slashes", "/\n/evil.example"],
  ["a carriage return between the slashes", "/\r/evil.example"],
  ["CRLF between the slashes", "/\r\n/evil.example"],
  ["a tab after two slashes", "//\tevil.example"],
  ["a NUL byte", "/\u0000/evil.example"],
  ["a DEL", "/\u007f/evil.example"],
  ["a C1 control (NEL)", "/\u0085/evil.example"],
  ["a leading space", " //evil.example"],
  ["a leading tab", "\t//evil.example"],
  ["a header injection", "/sites\r\nLocation: https://evil.example"],
  // Userinfo and look-alikes of a trusted host.
  ["userinfo before the host", "//app.example@evil.example"],
  ["a trusted host as userinfo", "https://app.example@evil.example"],
  ["a trusted host as a subdomain", "https://app.example.evil.example"],
  // Unicode look-alikes of the separators.
  ["fullwidth solidus", "／／evil.example"],
  ["ideographic full stop in a scheme-relative host", "//evil。example"],
  ["circled letters", "//ⓔⓥⓘⓛ.example"],
];

test.each(OWASP_TRICKS)("%s never leaves the dashboard: %j", (_trick, value) => {
  const path = safeReturnPath(value);
  expect(landsOn(path)).toBe(ORIGIN);
  // Each of these is refused outright, not passed on in a form the browser might read otherwise.
  expect(path).toBe("/");
});

test.each([
  ["a percent-encoded tab", "/%09/evil.example"],
  ["percent-encoded slashes", "/%2F%2Fevil.example"],
  ["a percent-encoded backslash", "/%5Cevil.example"],
  ["a percent-encoded CRLF", "/%0d%0a/evil.example"],
  ["an @ in the path", "/@evil.example"],
  ["a host-like first segment", "/evil.example"],
  ["a fullwidth solidus after the slash", "/／evil.example"],
])("%s stays a path of the dashboard (the parser keeps it encoded): %j", (_trick, value) => {
  expect(safeReturnPath(value)).toBe(value);
  expect(landsOn(value)).toBe(ORIGIN);
});

test.each([
  "/",
  "/sites/site_7Jq2/forms?archived=true",
  "/inbox?q=caf%C3%A9&from=2026-01-01",
  "/submissions/sub_1#fields",
  "/settings/account",
])("a path of the dashboard comes back as it was: %s", (value) => {
  expect(safeReturnPath(value)).toBe(value);
});

test("nothing, or an empty value, goes home", () => {
  expect(safeReturnPath(undefined)).toBe("/");
  expect(safeReturnPath("")).toBe("/");
});

test("whatever the value, a browser following it stays on the dashboard's origin", () => {
  const tricky = fc.constantFrom("/", "\\", "\t", "\n", "\r", "\u0000", " ", ":", "@", ".", "%", "?", "#", "evil", "／", "。");
  fc.assert(
    fc.property(
      fc.oneof(
        fc.array(tricky, { maxLength: 8 }).map((parts) => parts.join("")),
        fc.string(),
      ),
      (value) => {
        expect(landsOn(safeReturnPath(value))).toBe(ORIGIN);
      },
    ),
    { numRuns: 5000 },
  );
});

describe("the anchor kept through sign-in (keptAnchor)", () => {
  test("a page's plain anchor is kept, with or without its #", () => {
    expect(keptAnchor("#notifications")).toBe("#notifications");
    expect(keptAnchor("notifications")).toBe("#notifications");
    expect(keptAnchor("#email-notifications")).toBe("#email-notifications");
  });

  test("any other fragment is left behind: an emailed token never reaches a ?redirect=", () => {
    for (const hash of [
      "",
      "#",
      "#token=inlet_eml_abc",
      "#inlet_inv_0123456789",
      "#Notifications",
      "#a/b",
      "#x y",
      `#${"a".repeat(42)}`,
    ]) {
      expect([hash, keptAnchor(hash)]).toEqual([hash, ""]);
    }
  });
});
