import { sessionCookieName, sessionFromCookies } from "../../../lib/auth/session-cookie";

/**
 * A session is only our own cookie (docs/api.md, "Sessions in a cookie"): a cookie planted by a
 * sibling subdomain or over plain http must never act as a session.
 * The HTTP tests (test/local-stack/http/session-cookie.test.ts) prove it through the gateway on the test
 * stack's BASE_URL (localhost); these cover the deployments that stack is not: https on a
 * custom domain, and plain http elsewhere than localhost.
 */

const HTTPS = "https://forms.example.com";
const PLAIN = "http://inlet.intranet.example";
const A = "inlet_ss_tokenOfTheAttacker";
const B = "inlet_ss_tokenOfTheVictim";

/** A Cookie header as payload format 2.0 hands it over: split on `;`, trimmed. */
const cookies = (header: string) =>
  header
    .split(";")
    .map((c) => c.trim())
    .filter(Boolean);

describe("which cookie a deployment reads", () => {
  test("https and localhost read __Host-inlet_session; only plain http elsewhere reads inlet_session", () => {
    expect(sessionCookieName(HTTPS)).toBe("__Host-inlet_session");
    expect(sessionCookieName("http://localhost:3000")).toBe("__Host-inlet_session");
    expect(sessionCookieName("http://127.0.0.1:3000")).toBe("__Host-inlet_session");
    expect(sessionCookieName(PLAIN)).toBe("inlet_session");
  });

  test("over https, the reproduction's header acts as the __Host- cookie, never as the planted one", () => {
    expect(sessionFromCookies(cookies(`inlet_session=${A}; __Host-inlet_session=${B}`), HTTPS)).toBe(B);
    expect(sessionFromCookies(cookies(`__Host-inlet_session=${B}; inlet_session=${A}`), HTTPS)).toBe(B);
  });

  test("over https, an unprefixed cookie alone, or one whose prefix differs in case, is no session", () => {
    expect(sessionFromCookies(cookies(`inlet_session=${A}`), HTTPS)).toBeUndefined();
    expect(sessionFromCookies(cookies(`__host-inlet_session=${A}`), HTTPS)).toBeUndefined();
    expect(sessionFromCookies(cookies(`__HOST-inlet_session=${A}`), HTTPS)).toBeUndefined();
    expect(sessionFromCookies(cookies(`x__Host-inlet_session=${A}; other=1`), HTTPS)).toBeUndefined();
  });

  test("on plain http the service's own inlet_session is read, and a __Host- one (which it never sets) is not", () => {
    expect(sessionFromCookies(cookies(`inlet_session=${B}`), PLAIN)).toBe(B);
    expect(sessionFromCookies(cookies(`__Host-inlet_session=${A}; inlet_session=${B}`), PLAIN)).toBe(B);
  });
});

describe("more than one session cookie", () => {
  test.each([
    [HTTPS, `__Host-inlet_session=${A}; __Host-inlet_session=${B}`],
    [HTTPS, `__Host-inlet_session=${B}; theme=dark; __Host-inlet_session=${A}`],
    [HTTPS, `__Host-inlet_session=; __Host-inlet_session=${B}`],
    [PLAIN, `inlet_session=${A}; inlet_session=${B}`],
  ])("on %s, `%s` is refused, whatever the order", (baseUrl, header) => {
    expect(() => sessionFromCookies(cookies(header), baseUrl)).toThrow(
      expect.objectContaining({ code: "SESSION_COOKIE_AMBIGUOUS", status: 401 }),
    );
  });
});
