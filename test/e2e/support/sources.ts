import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { type Account, apiAs } from "./fixtures";

/** The value of a read-only copy field (a URL, a secret, a snippet), found by its label as a person reads it. */
export const shown = (scope: Page | Locator, label: string) =>
  scope.getByRole("textbox", { name: label, exact: true }).inputValue();

/** An intake request as a website's script sends it; answers the status (and error code, when refused). */
export async function send(request: APIRequestContext, source: { url: string; secret: string }, fields: Record<string, string>) {
  const response = await request.post(source.url, { data: fields, headers: { "x-webhook-key": source.secret } });
  const body = (await response.json()) as { referenceId?: string; error?: { code: string } };
  return { status: response.status(), code: body.error?.code, referenceId: body.referenceId };
}

type Created = { id: string; webhookUrl: string; secretKey: string };

/** A site (with `domain`) and generic sources named `names`, arranged through the API. */
export async function siteWithSources(request: APIRequestContext, account: Account, names: string[], domain?: string) {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", {
    name: "Marketing site",
    ...(domain ? { domain } : {}),
  });
  const path = `/api/v1/sites/${site.id}/webhooks`;
  const sources: { id: string; name: string; url: string; secret: string }[] = [];
  for (const name of names) {
    const { id, webhookUrl: url, secretKey: secret } = await apiAs<Created>(request, account, "POST", path, { name });
    sources.push({ id, name, url, secret });
  }
  return { siteId: site.id, sources };
}

/**
 * A visitor's browser on the customer's own website (another origin, served by the test): the
 * page holds `html` at `https://<domain>/contact`, and any other page of that domain answers
 * "Thank you" (where a `_redirect` lands).
 */
const VISITOR_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Safari/537.36";

export async function visitorOn(browser: Browser, domain: string, html: string) {
  // A person's browser, not a headless one: Chromium's headless user agent is one of the bot
  // signals (docs/spam.md), and with the other tests' submissions from this same address in the
  // same minute (ip_rate) it would tip a real visitor's lead into spam.
  const context = await browser.newContext({ userAgent: VISITOR_USER_AGENT });
  await context.route(`https://${domain}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    const body =
      path === "/contact"
        ? `<!doctype html><title>Contact</title><main>${html}</main>`
        : "<!doctype html><title>Thanks</title><h1>Thank you</h1>";
    return route.fulfill({ status: 200, contentType: "text/html", body });
  });
  const page = await context.newPage();
  await page.goto(`https://${domain}/contact`);
  return { page, close: () => context.close() };
}

/** A source's row in the site page's "Sources" section, found by its name. */
export const sourceRow = (page: Page, name: string) =>
  page
    .getByRole("region", { name: "Sources" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });

/** Creates a source from the site page's "New source" dialog; answers the dialog that shows its setup. */
export async function createSourceInPage(page: Page, name: string, kind = "Website form or script") {
  await page.getByRole("button", { name: "New source" }).click();
  const form = page.getByRole("dialog", { name: "New source" });
  await form.getByLabel("Source name").fill(name);
  await form.getByLabel("What sends to it").selectOption({ label: kind });
  await form.getByRole("button", { name: "Create source" }).click();
  return page.getByRole("dialog", { name: `${name} is ready` });
}

/** A site with one source "Contact form" (arranged through the API), its page open; answers the source and its row. */
export async function openSiteWithOneSource(page: Page, request: APIRequestContext, account: Account) {
  const { siteId, sources } = await siteWithSources(request, account, ["Contact form"]);
  await page.goto(`/sites/${siteId}/sources`);
  return { siteId, source: sources[0] as (typeof sources)[number], row: sourceRow(page, "Contact form") };
}
