import fc from "fast-check";
import { api } from "../../support/api";
import {
  type IntakeTarget,
  intakeErrorsInStackLog,
  intakePath,
  intakeTarget,
  stackLogFor,
  updateSite,
} from "../../support/intake";

/**
 * Random bodies, content types, charsets, field names and headers thrown at the intake endpoint
 * through the gateway: whatever arrives, the answer is never a 5xx, always carries CORS, and is
 * either a success, a 303, or the error envelope with a code.
 */
const HOSTILE_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "__proto__[polluted]",
  "constructor.prototype.polluted",
  "a.__proto__",
  "a__proto__",
  "a____proto__",
  "hasOwnProperty",
  "toString",
  "valueOf",
  "_redirect",
  "_next",
  "_form",
  "_hp",
  "_gotcha",
  "_replyto",
  "_subject",
  "_ts",
  "_charset_",
  "_",
  "__",
  "___",
  "name[]",
  "[]",
  "a[b][c]",
  "a__b",
  "a.b",
  "a..b",
  ".",
  "..",
  "",
  " ",
  "\u0000",
  "\uFEFF",
  "%",
  "%zz",
  "%00",
  "&",
  "=",
  "+",
  "é",
  "🎉",
  "\uD800",
  '"quoted"',
  "line\r\nbreak",
  "x".repeat(100),
  "x".repeat(101),
  "g-recaptcha-response",
  "cf-turnstile-response",
  "google_key",
  "user_column_data",
  "data",
  "lead_id",
];

const HOSTILE_VALUES = [
  "",
  " ",
  "https://example.com/thanks?x=1#y",
  "javascript:alert(1)",
  "//evil.example",
  "http://user:pw@example.com",
  "v".repeat(10_000),
  "v".repeat(10_001),
  "\u0000",
  "\uD800",
  "9007199254740993",
  "a@b.c",
  "1".repeat(400),
];

const CHARSETS = [
  "utf-8",
  "UTF-8",
  '"utf-8"',
  "iso-8859-1",
  "windows-1252",
  "shift_jis",
  "utf-16le",
  "utf-16be",
  "klingon",
  "",
  "utf-8;charset=latin1",
];

const name = fc.oneof(
  fc.constantFrom(...HOSTILE_NAMES),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: "binary", maxLength: 12 }),
);
const text = fc.oneof(
  fc.constantFrom(...HOSTILE_VALUES),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
);
const pairs = fc.array(fc.tuple(name, text), { maxLength: 12 });
const charset = fc.constantFrom(...CHARSETS);

const jsonString = (s: string) => JSON.stringify(s);
/** JSON text written by hand, so keys such as __proto__ stay keys and big integers stay literal. */
const jsonValue: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text.map(jsonString),
    fc.constantFrom("null", "true", "false", "0", "-1.5e300", "7100000001234567891", "-9223372036854775808", "00012", "1e999"),
    fc.integer().map(String),
    fc.array(tie("value"), { maxLength: 4 }).map((items) => `[${items.join(",")}]`),
    fc
      .array(fc.tuple(name, tie("value")), { maxLength: 5 })
      .map((entries) => `{${entries.map(([k, v]) => `${jsonString(k)}:${v}`).join(",")}}`),
  ),
})).value;

const jsonObject = fc
  .array(fc.tuple(name, jsonValue), { maxLength: 10 })
  .map((entries) => `{${entries.map(([k, v]) => `${jsonString(k)}:${v}`).join(",")}}`);

const adsPayload = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc.record(
          { column_id: fc.oneof(name, fc.constantFrom("EMAIL", "FULL_NAME", "PHONE_NUMBER", "WORK_EMAIL")), string_value: text },
          { requiredKeys: [] },
        ),
        fc.constant(null),
        text,
      ),
      { maxLength: 6 },
    ),
    fc.oneof(fc.constant(undefined), text),
    fc.constantFrom("google_key", "Google_key", "partner_key", "other_key"),
  )
  .map(([columns, leadId, keyField]) => ({ columns, leadId, keyField }));

type Body = { bytes: Buffer; contentType: string | undefined; secretInBody?: string };

/** Percent-encodes UTF-8 bytes (lone surrogates included, which encodeURIComponent refuses). */
const percent = (s: string) =>
  [...Buffer.from(s, "utf8")]
    .map((b) =>
      /[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, "0")}`,
    )
    .join("");

const urlencode = (entries: [string, string][], mode: "component" | "raw") =>
  entries.map(([k, v]) => (mode === "raw" ? `${k}=${v}` : `${percent(k)}=${percent(v)}`)).join("&");

function multipart(
  entries: [string, string][],
  boundary: string,
  partCharset: string | undefined,
  withFile: boolean,
  truncate: boolean,
): Buffer {
  const chunks: Buffer[] = [];
  for (const [k, v] of entries) {
    const type = partCharset === undefined ? "" : `\r\nContent-Type: text/plain; charset=${partCharset}`;
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, "%22")}"${type}\r\n\r\n${v}\r\n`),
    );
  }
  if (withFile) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n\u0000\u0001\r\n`,
      ),
    );
  }
  if (!truncate) chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

function bodies(secret: string): fc.Arbitrary<Body> {
  return fc.oneof(
    fc.tuple(jsonObject, fc.option(charset)).map(([json, cs]) => ({
      bytes: Buffer.from(json),
      contentType: cs === null ? "application/json" : `application/json; charset=${cs}`,
    })),
    fc
      .tuple(jsonValue, fc.constantFrom("application/json", "application/vnd.api+json"))
      .map(([json, type]) => ({ bytes: Buffer.from(json), contentType: type })),
    fc
      .tuple(pairs, fc.constantFrom("component", "raw") as fc.Arbitrary<"component" | "raw">, fc.option(charset))
      .map(([entries, mode, cs]) => ({
        bytes: Buffer.from(urlencode(entries, mode), "utf8"),
        contentType: cs === null ? "application/x-www-form-urlencoded" : `application/x-www-form-urlencoded; charset=${cs}`,
      })),
    fc
      .tuple(
        pairs,
        fc.constantFrom("b", "----WebKitFormBoundaryAbCdEfGhIjKlMnOp", "x y", ""),
        fc.option(charset),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
      )
      .map(([entries, boundary, cs, file, truncate, quoted]) => ({
        bytes: multipart(entries, boundary, cs ?? undefined, file, truncate),
        contentType: `multipart/form-data; boundary=${quoted ? `"${boundary}"` : boundary}`,
      })),
    fc.tuple(adsPayload, fc.boolean()).map(([ads, rightKey]) => {
      const payload: Record<string, unknown> = { user_column_data: ads.columns, api_version: "1.0", is_test: true };
      if (ads.leadId !== undefined) payload.lead_id = ads.leadId;
      payload[ads.keyField] = rightKey ? secret : "wrong";
      return { bytes: Buffer.from(JSON.stringify(payload)), contentType: "application/json", secretInBody: secret };
    }),
    fc
      .tuple(
        fc.uint8Array({ maxLength: 600 }),
        fc.option(
          fc.oneof(
            fc.string({ maxLength: 60 }),
            fc.constantFrom(
              "text/plain",
              "application/json",
              "multipart/form-data",
              "application/x-www-form-urlencoded; charset=",
            ),
          ),
        ),
      )
      .map(([bytes, type]) => ({ bytes: Buffer.from(bytes), contentType: type ?? undefined })),
  );
}

const secretPlacement = fc.constantFrom("query", "query", "header", "none", "wrong", "empty");
const extraHeaders = fc.record(
  {
    "idempotency-key": fc.oneof(fc.string({ maxLength: 20 }), fc.constant("k".repeat(256))),
    referer: fc.constantFrom("https://example.com/", "not a url", ""),
    "user-agent": fc.constantFrom("Mozilla/5.0 Firefox/128.0", "curl/8.0", ""),
  },
  { requiredKeys: [] },
);

/** Header values fetch can send: no CR, LF or NUL, and Latin-1 only. */
const sendable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([, v]) => /^[\t\x20-\x7e\x80-\xff]*$/.test(v)));

let generic: IntakeTarget;
let withDomain: IntakeTarget;
beforeAll(async () => {
  generic = await intakeTarget("property");
  withDomain = await intakeTarget("property-domain", { name: "ads", source: "partner_ads" }, generic.owner);
  await updateSite(withDomain.owner, withDomain.siteId, { domain: "example.com" });
});

test("no input makes the endpoint answer 5xx; every answer is JSON with a code, or a success, with CORS", async () => {
  await fc.assert(
    fc.asyncProperty(
      secretPlacement,
      extraHeaders,
      fc.boolean().chain((useDomain) => {
        const t = useDomain ? withDomain : generic;
        return bodies(t.webhook.secretKey).map((body) => ({ t, body }));
      }),
      async (placement, headers, { t, body }) => {
        const secret = t.webhook.secretKey;
        const query =
          placement === "query" ? `?key=${secret}` : placement === "wrong" ? "?key=wrong" : placement === "empty" ? "?key=" : "";
        const sent: Record<string, string> = sendable(headers as Record<string, string>);
        if (placement === "header") sent["x-webhook-key"] = secret;
        if (body.contentType !== undefined && /^[\t\x20-\x7e]*$/.test(body.contentType)) sent["content-type"] = body.contentType;
        const res = await api("POST", `${intakePath(t.webhook.id)}${query}`, { rawBody: body.bytes, headers: sent });
        if (res.status >= 500) {
          throw new Error(
            `${res.status} for content-type ${JSON.stringify(body.contentType)} body ${JSON.stringify(body.bytes.toString("latin1").slice(0, 300))}\n${res.text}\n${stackLogFor(res)}`,
          );
        }
        expect(res.headers.get("access-control-allow-origin")).toBe("*");
        if (res.status === 303) {
          expect(res.headers.get("location")).toMatch(/^https?:\/\//);
          return;
        }
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(typeof res.body?.success).toBe("boolean");
        if (res.status === 200) {
          expect(res.body).toEqual({
            success: true,
            submissionId: expect.stringMatching(/^sub_/),
            referenceId: expect.stringMatching(/^[A-Z0-9]+-\d+$/),
            fieldsMapped: expect.any(Array),
          });
        } else {
          expect(res.status).toBeGreaterThanOrEqual(400);
          expect(res.body).toEqual({
            success: false,
            error: { code: expect.stringMatching(/^[A-Z_]+$/), message: expect.any(String) },
          });
        }
      },
    ),
    { numRuns: 250, interruptAfterTimeLimit: 40_000 },
  );
  // Belt and braces: the stack logged no unhandled intake error during this whole test file.
  expect(intakeErrorsInStackLog()).toEqual([]);
}, 60_000);
