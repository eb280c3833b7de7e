import type { APIGatewayProxyEventV2 } from "aws-lambda";
import fc from "fast-check";
import Negotiator from "negotiator";
import { AppError, ERROR_STATUS } from "../../../lib/errors";
import { errorResponse, type HttpResult } from "../../../lib/http/response";
import { answerForSite, isNavigation, withBrowserPages } from "../../../lib/intake/browser-answer";
import { REFUSAL_WORDS } from "../../../lib/intake/html-words";

/**
 * The browser pages for the refusals no request to the local stack can produce on demand (a
 * throttled table, a bug, a rate limit): the wrapper over an inner handler that answers them.
 * test/local-stack/http/intake-html.test.ts covers every refusal a request can cause, end to end.
 */

const navigation = {
  headers: { accept: "text/html,*/*;q=0.8", "sec-fetch-mode": "navigate", referer: "https://www.example.com/contact" },
} as unknown as APIGatewayProxyEventV2;

const answering = (result: HttpResult) => withBrowserPages(async (_event: APIGatewayProxyEventV2, _context: unknown) => result);

test.each([
  ["SERVICE_UNAVAILABLE", { "retry-after": "1" }],
  ["RATE_LIMITED", { "retry-after": "30" }],
  ["INTERNAL_ERROR", undefined],
] as const)("%s: the page has its words, its status, its headers and (for a 5xx) the request id", async (code, headers) => {
  const json = errorResponse(new AppError(code, "Fixed text", undefined, headers), "req-4f2a");
  const page = await answering({ ...json, headers: { ...json.headers, "access-control-allow-origin": "*" } })(navigation, {});
  expect(page.statusCode).toBe(ERROR_STATUS[code]);
  expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
  expect(page.headers["access-control-allow-origin"]).toBe("*");
  expect(page.headers["retry-after"]).toBe(headers?.["retry-after"]);
  expect(page.body).toContain(`<p>${(REFUSAL_WORDS[code] as string).replace(/'/g, "&#39;")}</p>`);
  expect(page.body).toContain(`(error ${code}, HTTP ${ERROR_STATUS[code]}).`);
  // The envelope carries the request id on every 5xx, and so does the page.
  expect(page.body?.includes("Request id: req-4f2a.")).toBe(ERROR_STATUS[code] >= 500);
});

test("an answer the wrapper cannot read (never ours) passes through unchanged", async () => {
  const odd: HttpResult = { statusCode: 200, headers: { "content-type": "text/plain" }, body: "ok" };
  const out = await answering(odd)(navigation, {});
  expect(out).toMatchObject({ statusCode: 200, body: "ok", headers: { "content-type": "text/plain" } });
});

test("the page's frame-ancestors are the site's once the intake said whose answer it is, anyone's before", async () => {
  const frameAncestors = (page: HttpResult) => /frame-ancestors (.*)$/.exec(page.headers["content-security-policy"] ?? "")?.[1];
  const json = errorResponse(new AppError("SITE_INACTIVE", "This site is not accepting submissions"));
  const event = { headers: { ...navigation.headers } } as unknown as APIGatewayProxyEventV2;
  const before = await answering({ ...json, headers: { ...json.headers } })(event, {});
  expect(frameAncestors(before)).toBe("*");
  const known = withBrowserPages(async (e: APIGatewayProxyEventV2, _context: unknown) => {
    answerForSite(e, "acme.example");
    return { ...json, headers: { ...json.headers } };
  });
  expect(frameAncestors(await known(event, {}))).toBe(
    "https://acme.example:* https://*.acme.example:* http://acme.example:* http://*.acme.example:*",
  );
  // Another request's answer (another event) knows nothing of that site.
  expect(frameAncestors(await answering({ ...json, headers: { ...json.headers } })(navigation, {}))).toBe("*");
});

test("a navigation is what the negotiator says, though it is loaded only for an Accept that names html or a text type", async () => {
  const ranges = fc.constantFrom(
    "text/html",
    "TEXT/HTML",
    "application/xhtml+xml",
    "application/json",
    "application/*",
    "*/*",
    "*/html",
    "text/*",
    "text/plain",
    "image/avif",
    "application/xml",
    "*",
    "",
    ";",
  );
  const range = fc.record({ type: ranges, q: fc.option(fc.constantFrom("0", "0.1", "0.5", "0.9", "1"), { nil: undefined }) });
  await fc.assert(
    fc.asyncProperty(fc.array(range, { minLength: 1, maxLength: 5 }), async (parts) => {
      const accept = parts.map((p) => (p.q === undefined ? p.type : `${p.type};q=${p.q}`)).join(", ");
      const expected = new Negotiator({ headers: { accept } }).mediaType(["application/json", "text/html"]) === "text/html";
      expect(await isNavigation({ accept })).toBe(expected);
      expect(await isNavigation({ accept, "sec-fetch-mode": "navigate" })).toBe(expected);
      expect(await isNavigation({ accept, "sec-fetch-mode": "cors" })).toBe(false);
    }),
    { numRuns: 1000 },
  );
});
