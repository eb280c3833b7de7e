import { afterEach, jest } from "@jest/globals";
import { AppError } from "../../../lib/errors";
import { CAPTCHA_TOKEN_FIELDS, verifyCaptcha } from "../../../lib/spam/captcha";
import { TEST_TIMEOUT_MS } from "../../support/fake-captcha";

/**
 * The captcha's timeout holds even when aborting the request does not reach it. Node's fetch
 * (undici) can lose the link between the caller's signal and a request once the request object is
 * garbage-collected (nodejs/node#55428): the abort then no longer errors the response's body, and
 * a provider stalling after its headers held an intake for 6 s on a 1 s timeout in a CI run
 * (test/local-stack/http/captcha.test.ts, "stalls after its headers", under load). That loss
 * depends on when the collector runs, so it is injected here: a fetch whose answer ignores the
 * signal, at each stage. test/local-stack/http/captcha.test.ts has the real provider stand-in.
 */

const SETTINGS = { provider: "challenge", siteKey: "site-key", secretKey: "sk-test-secret" } as const;
const TOKENS = { [CAPTCHA_TOKEN_FIELDS.challenge[0] as string]: "token" };
const LATE_MS = 4 * TEST_TIMEOUT_MS;
const VERDICT = JSON.stringify({ success: true, hostname: "forms.example.com" });

afterEach(() => {
  jest.restoreAllMocks();
});

/** A promise settled after `ms`, whose timer does not keep the test process alive. */
const after = <T>(ms: number, value: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(value()), ms).unref());

async function timedRefusal() {
  const started = performance.now();
  const error = await verifyCaptcha(SETTINGS, null, TOKENS, "203.0.113.7").catch((e: unknown) => e);
  return { error, ms: performance.now() - started };
}

test.each([
  [
    "headers that come late",
    () => after(LATE_MS, () => new Response(VERDICT, { headers: { "content-type": "application/json" } })),
  ],
  [
    "headers at once, then a body that comes late",
    async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            void after(LATE_MS, () => {
              controller.enqueue(new TextEncoder().encode(VERDICT));
              controller.close();
            });
          },
        }),
        { headers: { "content-type": "application/json" } },
      ),
  ],
])("a provider answering with %s, the abort not reaching it: 503 CAPTCHA_UNAVAILABLE at the timeout", async (_, answer) => {
  jest.spyOn(globalThis, "fetch").mockImplementation(answer as never);
  const { error, ms } = await timedRefusal();
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: "CAPTCHA_UNAVAILABLE", status: 503 });
  expect(ms).toBeGreaterThanOrEqual(TEST_TIMEOUT_MS - 50);
  expect(ms).toBeLessThan(LATE_MS - 500);
});

test("an answer within the timeout is read as before: the verdict passes", async () => {
  jest
    .spyOn(globalThis, "fetch")
    .mockImplementation((async () => new Response(VERDICT, { headers: { "content-type": "application/json" } })) as never);
  await expect(verifyCaptcha(SETTINGS, null, TOKENS, "203.0.113.7")).resolves.toBeUndefined();
});
