import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Frame, type Page } from "playwright-core";
import { escapeHtml } from "../../../lib/intake/html-page";
import { baseUrl } from "../../support/api";
import { type IntakeTarget, intakePath, intakeTarget, updateSite } from "../../support/intake";

/**
 * A form embedded in an iframe, in a real Chromium (docs/intake.md, "Browser answers"): the
 * intake's thank-you and refusal pages show in the frame when the page around it is on the site's
 * domain (or the site has none), and Chromium blocks them in a page of any other domain. Host
 * names are mapped to loopback with Chromium's resolver rules, so origins differ as they do on
 * the web: the site at `*.framing.test`, someone else at `elsewhere.test`, the intake at the
 * test stack's own address.
 */

const SITE_DOMAIN = "framing.test";

let browser: Browser;
let server: Server;
let port: number;
let withDomain: IntakeTarget;
let withoutDomain: IntakeTarget;

/** The form page that goes in the frame: a plain HTML form posting to `action`, with a `_redirect` when given. */
function formPage(action: string, redirect?: string): string {
  const hidden = redirect ? `<input type="hidden" name="_redirect" value="${escapeHtml(redirect)}">` : "";
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Form</title></head><body>
<form method="post" action="${escapeHtml(action)}">${hidden}
  <label>Name <input name="name"></label>
  <label>Email <input type="email" name="email"></label>
  <button>Send</button>
</form></body></html>`;
}

/** A page of some site that embeds `src` in an iframe. */
const embeddingPage = (src: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact</title></head><body>
<h1>Contact us</h1><iframe title="Contact form" src="${escapeHtml(src)}" width="600" height="400"></iframe></body></html>`;

const at = (host: string, path: string) => `http://${host}:${port}${path}`;

beforeAll(async () => {
  withDomain = await intakeTarget("browser-framed", { name: "Embedded form" });
  await updateSite(withDomain.owner, withDomain.siteId, { domain: SITE_DOMAIN });
  withoutDomain = await intakeTarget("browser-framed-open", { name: "Open form" });
  const action = (t: IntakeTarget, webhookId = t.webhook.id) =>
    `${baseUrl()}${intakePath(webhookId)}?key=${encodeURIComponent(t.webhook.secretKey)}`;

  // One server answers every host name; the Host header says which site a request is for.
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const pages: Record<string, string> = {
      "/form": formPage(action(withDomain)),
      "/open-form": formPage(action(withoutDomain)),
      // Refused once the site is read: a _redirect off the site's domain (400 INVALID_REDIRECT).
      "/off-domain-form": formPage(action(withDomain), "https://elsewhere.test/thanks"),
      // Each embeds a form page from the site's own host, as a site embedding its form does.
      "/embed": embeddingPage(at(`forms.${SITE_DOMAIN}`, url.searchParams.get("form") ?? "/form")),
    };
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    const page = pages[url.pathname];
    res.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(page ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--disable-gpu",
      "--disable-quic",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
      `--host-resolver-rules=MAP *.${SITE_DOMAIN} 127.0.0.1, MAP ${SITE_DOMAIN} 127.0.0.1, MAP elsewhere.test 127.0.0.1`,
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

/** Opens `url` (a page embedding a form) and records the console, where Chromium reports a blocked frame. */
async function open(url: string): Promise<{ page: Page; console: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const console: string[] = [];
  page.on("console", (message) => console.push(message.text()));
  await page.goto(url);
  return { page, console };
}

/** Fills the embedded form and presses Send; the frame once its navigation to the intake ended. */
async function sendInFrame(page: Page): Promise<Frame> {
  const form = page.frameLocator("iframe");
  await form.getByLabel("Name").fill("Ada Lovelace");
  await form.getByLabel("Email").fill("ada@example.com");
  const frame = page.frames()[1];
  if (!frame) throw new Error("the page has no frame");
  await Promise.all([frame.waitForNavigation(), form.getByRole("button", { name: "Send" }).click()]);
  return frame;
}

test("on a page of the site's domain, the thank-you page shows in the frame", async () => {
  const { page, console } = await open(at(`www.${SITE_DOMAIN}`, "/embed"));
  const frame = await sendInFrame(page);
  expect(frame.url()).toContain(intakePath(withDomain.webhook.id));
  await frame.getByRole("heading", { name: "Thank you!" }).waitFor();
  await expect(frame.getByRole("strong").textContent()).resolves.toMatch(/^[A-Z0-9]+-\d+$/);
  expect(console.filter((line) => line.includes("frame-ancestors"))).toEqual([]);
  await page.context().close();
});

test("on the bare domain too, and a refusal shows in the frame the same way", async () => {
  const { page } = await open(at(SITE_DOMAIN, "/embed?form=/off-domain-form"));
  const frame = await sendInFrame(page);
  await frame.getByRole("heading", { name: "Your submission was not sent" }).waitFor();
  await page.context().close();
});

test("on another domain's page, Chromium refuses to show the site's answer in the frame", async () => {
  const { page, console } = await open(at("elsewhere.test", "/embed"));
  const form = page.frameLocator("iframe");
  await form.getByLabel("Name").fill("Mallory");
  await form.getByLabel("Email").fill("mallory@example.com");
  await form.getByRole("button", { name: "Send" }).click();
  // Chromium reports the violation on the console and shows its error page in the frame instead.
  const blocked = () => console.some((line) => line.includes("frame-ancestors") && line.includes(`*.${SITE_DOMAIN}`));
  for (let waited = 0; !blocked() && waited < 10_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  expect(console.filter((line) => line.includes("frame-ancestors"))).toEqual([
    expect.stringMatching(/^Framing '.*' violates the following Content Security Policy directive: "frame-ancestors .*blocked/s),
  ]);
  await expect(form.getByRole("heading", { name: "Thank you!" }).count()).resolves.toBe(0);
  await expect(form.getByLabel("Name").count()).resolves.toBe(0);
  await page.context().close();
});

test("a site without a domain: its answers show in a frame on any page", async () => {
  const { page } = await open(at("elsewhere.test", "/embed?form=/open-form"));
  const frame = await sendInFrame(page);
  await frame.getByRole("heading", { name: "Thank you!" }).waitFor();
  await page.context().close();
});
