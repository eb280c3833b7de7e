import { api } from "../../support/api";
import {
  accepted,
  CHROMIUM_HEADERS,
  chromiumMultipart,
  chromiumUrlencoded,
  formSubmissions,
  type IntakeTarget,
  intakePath,
  intakeTarget,
  linkedForm,
  submissionOnPage,
} from "../../support/intake";

/**
 * A static site's plain HTML form, posted by a browser: the bodies below are byte for byte what
 * Chromium sends for
 *
 *   <form method="post" action="{webhookUrl}?key={secret}" [enctype="multipart/form-data"]>
 *     <input name="name"> <input type="email" name="email"> <textarea name="message"></textarea>
 *     <input type="checkbox" name="topics" value="sales"> <input type="checkbox" name="topics" value="support">
 *     <input type="hidden" name="_redirect" value="https://www.example.com/thanks?lang=en">
 *     <input name="_gotcha" style="display:none"> [<input type="file" name="attachment">]
 *   </form>
 *
 * sent raw through the gateway, which hands them to the function base64-encoded as API Gateway does.
 */
const entries: [string, string][] = [
  ["name", "Zoë O'Brien & Søn"],
  ["email", "zoe+forms@example.com"],
  ["message", "Hello!\nLine two: 100% sure, a=b&c=d.\n\n— Zoë 👋"],
  ["topics", "sales"],
  ["topics", "support"],
  ["_redirect", "https://www.example.com/thanks?lang=en"],
  ["_gotcha", ""],
];

const expectedData = {
  name: "Zoë O'Brien & Søn",
  email: "zoe+forms@example.com",
  // The browser normalizes line breaks in values to CRLF before encoding.
  message: "Hello!\r\nLine two: 100% sure, a=b&c=d.\r\n\r\n— Zoë 👋",
  topics: ["sales", "support"],
};

let t: IntakeTarget;
beforeAll(async () => {
  t = await intakeTarget("browser", { name: "Contact page" });
});

async function post(body: Buffer | string, contentType: string) {
  return api("POST", `${intakePath(t.webhook.id)}?key=${t.webhook.secretKey}`, {
    rawBody: body,
    headers: { ...CHROMIUM_HEADERS, "content-type": contentType },
    // Chromium's own headers, Sec-Fetch-Mode: navigate included (fetch() would send `cors`).
    exactHeaders: true,
  });
}

async function followRedirect(res: Awaited<ReturnType<typeof post>>) {
  expect(res.status).toBe(303);
  const location = res.headers.get("location") ?? "";
  const match = /^https:\/\/www\.example\.com\/thanks\?lang=en&ref=([A-Z0-9]+-\d+)$/.exec(location);
  if (!match) throw new Error(`unexpected location ${location}`);
  const form = await linkedForm(t.webhook.id);
  const stored = (await formSubmissions(form.id)).find((s) => s.referenceId === match[1]);
  if (!stored) throw new Error(`no submission ${match[1]}`);
  return stored;
}

describe("a real HTML form post", () => {
  test("urlencoded, exactly as Chromium encodes it: 303 to the thank-you page, data intact", async () => {
    const body = chromiumUrlencoded(entries);
    // Spot-check the encoding: UTF-8 percent-encoded, spaces as +, CRLF line breaks, *-._ kept.
    expect(body).toContain("name=Zo%C3%AB+O%27Brien+%26+S%C3%B8n");
    expect(body).toContain("Hello%21%0D%0ALine+two%3A+100%25+sure%2C+a%3Db%26c%3Dd.%0D%0A%0D%0A%E2%80%94+Zo%C3%AB+%F0%9F%91%8B");
    const res = await post(body, "application/x-www-form-urlencoded");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const stored = await followRedirect(res);
    expect(stored.data).toEqual(expectedData);
    expect(stored.metadata).toMatchObject({
      userAgent: CHROMIUM_HEADERS["user-agent"],
      referer: CHROMIUM_HEADERS.referer,
      droppedFiles: [],
    });
    expect(stored.spam.isSpam).toBe(false);
  });

  test("multipart, exactly as Chromium builds it, with a file: the file is dropped and named, the text kept", async () => {
    const { body, contentType } = chromiumMultipart([
      ...entries,
      {
        name: "attachment",
        filename: "résumé (final).pdf",
        contentType: "application/pdf",
        content: Buffer.from("%PDF-1.4\n%âãÏÓ\nbinary\r\n--not-a-boundary\r\n"),
      },
    ]);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=----WebKitFormBoundary[A-Za-z0-9]{16}$/);
    const text = body.toString("latin1");
    expect(text.startsWith("------WebKitFormBoundary")).toBe(true);
    expect(text).toContain('\r\nContent-Disposition: form-data; name="message"\r\n\r\nHello!\r\nLine two');
    expect(text).toContain('Content-Disposition: form-data; name="attachment"; filename="r');
    expect(text).toContain("\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4");
    expect(text.endsWith("--\r\n")).toBe(true);

    const stored = await followRedirect(await post(body, contentType));
    expect(stored.data).toEqual(expectedData);
    expect(stored.metadata.droppedFiles).toEqual(["attachment"]);
    expect(JSON.stringify(stored)).not.toContain("binary");
  });

  test("multipart with an empty file input (no file chosen) records no dropped file", async () => {
    const { body, contentType } = chromiumMultipart([
      ["name", "No attachment"],
      { name: "attachment", filename: "", contentType: "application/octet-stream", content: Buffer.alloc(0) },
    ]);
    // No _redirect: the browser is shown the thank-you page (docs/intake.md, "Browser answers").
    const stored = await submissionOnPage(await post(body, contentType), t.webhook.id);
    expect(stored.data).toEqual({ name: "No attachment" });
    expect(stored.metadata.droppedFiles).toEqual([]);
  });

  test("field names with quotes and line breaks arrive as the browser escaped them", async () => {
    const { body, contentType } = chromiumMultipart([
      ['say "hi"', "1"],
      ["two\nlines", "2"],
    ]);
    const stored = await submissionOnPage(await post(body, contentType), t.webhook.id);
    expect(stored.data).toEqual({ "say %22hi%22": "1", "two%0D%0Alines": "2" });
  });

  test("a fetch() from a static page: JSON with the secret in X-Webhook-Key, CORS on the answer", async () => {
    const res = await api("POST", intakePath(t.webhook.id), {
      rawBody: JSON.stringify({ name: "Fetch", email: "fetch@example.com" }),
      headers: {
        ...CHROMIUM_HEADERS,
        "content-type": "application/json",
        "x-webhook-key": t.webhook.secretKey,
        "sec-fetch-mode": "cors",
        "sec-fetch-dest": "empty",
      },
    });
    expect(accepted(res).fieldsMapped).toEqual(["name", "email"]);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
