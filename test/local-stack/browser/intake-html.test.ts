import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { escapeHtml } from "../../../lib/intake/html-page";
import { baseUrl } from "../../support/api";
import { formSubmissions, type IntakeTarget, intakePath, intakeTarget, linkedForm } from "../../support/intake";

/**
 * A person with a plain HTML form on a static site, in a real Chromium (docs/intake.md, "Browser
 * answers"): pressing Send shows the intake's own thank-you page, a refusal shows words, and
 * the same page's script posting with fetch() still reads the JSON.
 */

let browser: Browser;
let site: Server;
let siteUrl: string;
let t: IntakeTarget;

/** The static site: a home page and a contact page whose form posts to `action`. */
function contactPage(action: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Contact us</title></head><body>
<h1>Contact us</h1>
<form method="post" action="${escapeHtml(action)}">
  <label>Name <input name="name"></label>
  <label>Email <input type="email" name="email"></label>
  <label>Message <textarea name="message"></textarea></label>
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="position:absolute;left:-9999px">
  <button>Send</button>
</form></body></html>`;
}

beforeAll(async () => {
  t = await intakeTarget("browser-html", { name: "Contact page" });
  const intake = `${baseUrl()}${intakePath(t.webhook.id)}`;
  site = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const pages: Record<string, string> = {
      "/": `<!doctype html><html lang="en"><head><title>Home</title></head><body><h1>Welcome home</h1></body></html>`,
      "/contact": contactPage(`${intake}?key=${encodeURIComponent(t.webhook.secretKey)}`),
      "/broken": contactPage(`${baseUrl()}${intakePath("wh_0000000000000000000000")}?key=inlet_whsk_x`),
    };
    if (url.pathname === "/favicon.ico") return void res.writeHead(204).end();
    const page = pages[url.pathname];
    res.writeHead(page ? 200 : 404, { "content-type": "text/html; charset=utf-8" });
    res.end(page ?? "not found");
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--disable-gpu", "--disable-quic", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** A fresh page that records what the browser reports (a CSP violation is a console error). */
async function newPage(colorScheme: "light" | "dark" = "light"): Promise<{ page: Page; console: string[] }> {
  const context = await browser.newContext({ colorScheme });
  const page = await context.newPage();
  const console: string[] = [];
  page.on("console", (message) => console.push(`${message.type()}: ${message.text()}`));
  return { page, console };
}

/** A computed style of the page's first `selector`, as an expression to evaluate in the page. */
const style = (selector: string, property: string) => `getComputedStyle(document.querySelector("${selector}")).${property}`;

/** Fills the contact form like a person and presses Send; the navigation's response. */
async function sendForm(page: Page, path: string) {
  await page.goto(`${siteUrl}${path}`);
  await page.getByLabel("Name").fill("Ada Lovelace");
  await page.getByLabel("Email").fill("ada@example.com");
  await page.getByLabel("Message").fill("Hello <b>there</b>");
  const [response] = await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Send" }).click()]);
  if (!response) throw new Error("the form post did not navigate");
  return response;
}

test("Send shows the thank-you page with the reference and a link back, styled under its CSP", async () => {
  const { page, console } = await newPage();
  const response = await sendForm(page, "/contact");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toBe("text/html; charset=utf-8");
  await expect(page.title()).resolves.toBe("Thank you");
  await page.getByRole("heading", { name: "Thank you!" }).waitFor();
  const reference = (await page.getByRole("strong").textContent()) ?? "";
  expect(reference).toMatch(/^[A-Z0-9]+-\d+$/);
  await page.getByText(`Your reference: ${reference}`).waitFor();
  const stored = (await formSubmissions((await linkedForm(t.webhook.id)).id)).find((s) => s.referenceId === reference);
  expect(stored?.data).toEqual({ name: "Ada Lovelace", email: "ada@example.com", message: "Hello <b>there</b>" });

  // The inline style sheet applied (its hash is in the CSP), and nothing was refused or run.
  await page.getByRole("main").waitFor();
  await expect(page.evaluate(style("main", "borderTopStyle"))).resolves.toBe("solid");
  await expect(page.evaluate(style("body", "backgroundColor"))).resolves.toBe("rgb(246, 247, 249)");
  await expect(page.locator("script").count()).resolves.toBe(0);
  expect(console).toEqual([]);

  // Chromium's default referrer policy sends a cross-origin post only the site's origin, so the
  // link goes back to the site (a page with a looser policy gets its own URL linked).
  const back = page.getByRole("link", { name: `Back to ${new URL(siteUrl).host}` });
  await expect(back.getAttribute("href")).resolves.toBe(`${siteUrl}/`);
  await back.click();
  await page.getByRole("heading", { name: "Welcome home" }).waitFor();
  await page.context().close();
});

test("the page follows the system's dark preference", async () => {
  const { page, console } = await newPage("dark");
  await sendForm(page, "/contact");
  await page.getByRole("heading", { name: "Thank you!" }).waitFor();
  await expect(page.evaluate(style("body", "backgroundColor"))).resolves.toBe("rgb(13, 17, 23)");
  expect(console).toEqual([]);
  await page.context().close();
});

test("a refused post (unknown webhook) says what went wrong in words, with its 404, and no JSON", async () => {
  const { page, console } = await newPage();
  const response = await sendForm(page, "/broken");
  expect(response.status()).toBe(404);
  await page.getByRole("heading", { name: "Your submission was not sent" }).waitFor();
  await page.getByText("This form's address is not known to the service").waitFor();
  const text = await page.locator("body").innerText();
  expect(text).not.toMatch(/[{}]|"success"/);
  await page.getByRole("link", { name: `Back to ${new URL(siteUrl).host}` }).waitFor();
  // A 404 is reported on the console as a failed resource load; nothing else is.
  expect(console.filter((line) => !line.includes("404"))).toEqual([]);
  await page.context().close();
});

test("the same page's script posting with fetch() still reads the spec's JSON", async () => {
  const { page } = await newPage();
  await page.goto(`${siteUrl}/contact`);
  await page.getByLabel("Name").fill("Grace Hopper");
  // Run in the page (a string: this project's TypeScript has no DOM types). Even an Accept that
  // prefers HTML gets JSON: the browser marks the request Sec-Fetch-Mode: cors.
  const answer = await page.evaluate<{ status: number; type: string | null; body: unknown }>(`(async () => {
    const form = document.querySelector("form");
    const res = await fetch(form.action, { method: "POST", body: new FormData(form), headers: { accept: "text/html" } });
    return { status: res.status, type: res.headers.get("content-type"), body: await res.json() };
  })()`);
  expect(answer.status).toBe(200);
  expect(answer.type).toBe("application/json; charset=utf-8");
  expect(answer.body).toEqual({
    success: true,
    submissionId: expect.stringMatching(/^sub_/),
    referenceId: expect.stringMatching(/^[A-Z0-9]+-\d+$/),
    fieldsMapped: ["name", "email", "message"],
  });
  await page.context().close();
});
