import { redirectTarget, validateRedirect } from "../../../lib/intake/redirect";
import { code } from "../../support/app-error";

describe("validateRedirect and redirectTarget", () => {
  test("absolute http(s) only, without credentials; on the site's domain or a subdomain when it has one", () => {
    for (const bad of [
      "/x",
      "//evil.com",
      "javascript:alert(1)",
      "data:text/html,x",
      "ftp://a.com/",
      "mailto:a@b.c",
      "https://u:p@a.com/",
      "",
    ]) {
      expect([bad, code(() => validateRedirect(bad))]).toEqual([bad, "INVALID_REDIRECT"]);
    }
    expect(validateRedirect(" https://example.com/x ").href).toBe("https://example.com/x");
    for (const ok of [
      "https://example.com/",
      "https://www.example.com/",
      "https://a.b.example.com:8443/x",
      "https://EXAMPLE.COM/",
    ]) {
      expect(() => validateRedirect(ok, "example.com")).not.toThrow();
    }
    for (const bad of [
      "https://evil.com/",
      "https://example.com.evil.com/",
      "https://notexample.com/",
      "https://evil.com/?https://example.com",
      "https://evil.com#example.com",
    ]) {
      expect([bad, code(() => validateRedirect(bad, "example.com"))]).toEqual([bad, "INVALID_REDIRECT"]);
    }
  });

  test("ref is appended; the target's query is kept as written; its own ref is replaced; the fragment stays last", () => {
    const target = (url: string) => redirectTarget(new URL(url), "ACME-42");
    expect(target("https://example.com/thanks")).toBe("https://example.com/thanks?ref=ACME-42");
    expect(target("https://example.com/t?a=1%202&b=x+y&flag#top")).toBe(
      "https://example.com/t?a=1%202&b=x+y&flag&ref=ACME-42#top",
    );
    expect(target("https://example.com/t?ref=old&ref=older&x=1")).toBe("https://example.com/t?x=1&ref=ACME-42");
    expect(target("https://example.com:8443/?")).toBe("https://example.com:8443/?ref=ACME-42");
  });
});
