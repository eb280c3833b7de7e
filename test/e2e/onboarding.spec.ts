import { expect, test } from "./support/fixtures";
import { shown, visitorOn } from "./support/sources";

test("a first-time user goes from nothing to a first submission, sent by the pasted HTML snippet", async ({
  signedIn: page,
  browser,
}) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome to Inlet" })).toBeVisible();

  // 1. A site, on the domain its forms live on.
  await page.getByLabel("Site name").fill("Bakery");
  await page.getByLabel("Domain (optional)").fill("bakery.example");
  await page.getByRole("button", { name: "Create site" }).click();

  // 2. A source.
  await page.getByLabel("Source name").fill("Contact form");
  await page.getByRole("button", { name: "Create source" }).click();

  // 3. What to paste: the URL, the secret (once), and the snippets.
  const url = await shown(page, "Intake URL");
  const secret = await shown(page, "Secret");
  expect(url).toMatch(/^http:\/\/localhost:\d+\/api\/v1\/incoming\/wh_/);
  expect(secret).toMatch(/^inlet_whsk_/);
  await expect(page.getByText("shown only this once")).toBeVisible();
  await expect(page.getByRole("tab", { name: "HTML form" })).toHaveAttribute("aria-selected", "true");
  const html = await shown(page, "HTML form");
  expect(html).toContain(`action="${url}?key=${secret}"`);

  // 4. The page waits, visibly, until the first submission arrives.
  const waiting = page.getByRole("status").filter({ hasText: "Waiting for your first submission" });
  await expect(waiting).toBeVisible();

  // A visitor fills the pasted form on the customer's own website (another origin) and sends it.
  const visitor = await visitorOn(browser, "bakery.example", html);
  await visitor.page.getByLabel("Name").fill("Ada Lovelace");
  await visitor.page.getByLabel("Email").fill("ada@example.com");
  await visitor.page.getByLabel("Message").fill("Two sourdough loaves for Saturday, please.");
  await visitor.page.getByRole("button", { name: "Send" }).click();
  // `_redirect` took the visitor back to the site's own thank-you page, with the reference.
  await expect(visitor.page.getByRole("heading", { name: "Thank you" })).toBeVisible();
  expect(visitor.page.url()).toMatch(/^https:\/\/bakery\.example\/thanks\?ref=/);
  await visitor.close();

  await expect(waiting).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Your first submission arrived" })).toBeVisible();
  await page.getByRole("link", { name: "Open the inbox" }).click();
  await expect(page.getByRole("heading", { name: "Contact form" })).toBeVisible();
  await expect(page.getByText("ada@example.com")).toBeVisible();
  await expect(page.getByText("Two sourdough loaves for Saturday, please.")).toBeVisible();

  // The secret was shown once: back home, it is nowhere on the page.
  await page.goto("/");
  await expect(page.getByRole("link", { name: "Bakery" })).toBeVisible();
  await expect(page.locator("body")).not.toContainText(secret);
});
