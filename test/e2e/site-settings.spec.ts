import type { Page } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { apiAs, createAccount, expect, signIn, submit, test } from "./support/fixtures";
import { memberOf, readSite, removeSource } from "./support/site-settings";
import { send, siteWithSources } from "./support/sources";

test.describe.configure({ mode: "parallel" });

const settingsOf = (page: Page, siteId: string) => page.goto(`/sites/${siteId}/settings`);
const section = (page: Page, name: string) => page.getByRole("region", { name });

test("rename, set the domain and the reference prefix; a malformed domain is refused beside its field", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, sources } = await siteWithSources(request, account, ["Contact form"]);
  await settingsOf(page, siteId);
  await expect(page.getByRole("heading", { level: 1, name: "Settings of Marketing site" })).toBeVisible();
  const general = section(page, "General");
  await expect(general.getByLabel("Reference prefix")).toHaveValue("MARK");

  // A URL is not a host name: the API's reason shows beside the field, nothing is saved.
  await general.getByLabel("Domain").fill("https://www.example.com/contact");
  await general.getByRole("button", { name: "Save settings" }).click();
  await expect(general.getByLabel("Domain")).toHaveAttribute("aria-invalid", "true");
  await expect(general.getByText("Must be a host name such as example.com")).toBeVisible();
  expect((await readSite(request, account, siteId)).site.domain).toBeNull();

  await general.getByLabel("Site name").fill("Acme shop");
  await general.getByLabel("Domain").fill("Shop.Example.com");
  await general.getByLabel("Reference prefix").fill("acme7");
  await expect(general.getByLabel("Reference prefix")).toHaveValue("ACME7");
  await general.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Settings of Acme shop" })).toBeVisible();
  await expect(general.getByLabel("Domain")).not.toHaveAttribute("aria-invalid", "true");

  const { site } = await readSite(request, account, siteId);
  expect(site).toMatchObject({ name: "Acme shop", domain: "shop.example.com", referencePrefix: "ACME7", isActive: true });
  // New submissions are numbered with the new prefix.
  const stored = await submit(request, sources[0] as { url: string; secret: string }, { email: "ada@example.com" });
  expect(stored.referenceId).toMatch(/^ACME7-\d+$/);

  // Turning submissions off refuses them at intake.
  await general.getByLabel("Accept submissions").uncheck();
  await general.getByRole("button", { name: "Save settings" }).click();
  await expect.poll(async () => (await readSite(request, account, siteId)).site.isActive).toBe(false);
  const refused = await send(request, sources[0] as { url: string; secret: string }, { email: "ada@example.com" });
  expect([refused.status, refused.code]).toEqual([403, "SITE_INACTIVE"]);

  await page.reload();
  await expect(section(page, "General").getByLabel("Site name")).toHaveValue("Acme shop");
  await expect(section(page, "General").getByLabel("Domain")).toHaveValue("shop.example.com");
  await expect(section(page, "General").getByLabel("Accept submissions")).not.toBeChecked();
});

test("captcha: choose a kind, its secret write-only (never shown, only replaced), a snippet for each kind, and off again", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, sources } = await siteWithSources(request, account, ["Contact form"]);
  const source = sources[0] as { url: string; secret: string };
  const secret = `0x${"s3cr3t".repeat(6)}`;
  const siteKey = "10000000-ffff-ffff-ffff-000000000001";
  await settingsOf(page, siteId);
  const captcha = section(page, "Captcha");
  await expect(captcha.getByText("Now: no captcha.")).toBeVisible();

  await captcha.getByLabel("Challenge-based (hCaptcha or Cloudflare Turnstile)").check();
  await captcha.getByLabel("Site key").fill(siteKey);
  // The snippet follows the kind and the key: one per vendor, with the token field intake reads.
  const hcaptcha = await captcha.getByRole("textbox", { name: "hCaptcha snippet" }).inputValue();
  expect(hcaptcha).toContain('<script src="https://js.hcaptcha.com/1/api.js" async defer></script>');
  expect(hcaptcha).toContain(`<div class="h-captcha" data-sitekey="${siteKey}"></div>`);
  await expect(captcha.getByText("h-captcha-response", { exact: true })).toBeVisible();
  await captcha.getByRole("tab", { name: "Cloudflare Turnstile" }).click();
  const turnstile = await captcha.getByRole("textbox", { name: "Cloudflare Turnstile snippet" }).inputValue();
  expect(turnstile).toContain(`<div class="cf-turnstile" data-sitekey="${siteKey}"></div>`);

  // Without a stored secret, one is needed.
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  await expect(captcha.getByLabel("Secret key")).toHaveAttribute("aria-invalid", "true");
  expect((await readSite(request, account, siteId)).site.captcha).toBeNull();

  await captcha.getByLabel("Secret key").fill(secret);
  const saved = page.waitForResponse((r) => r.request().method() === "PUT" && r.url().endsWith(`/api/v1/sites/${siteId}`));
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  // The update's own answer does not echo it either.
  const answer = await saved;
  expect(answer.status()).toBe(200);
  expect(await answer.text()).not.toContain(secret);
  await expect(captcha.getByText("Now: challenge-based captcha, secret key stored.")).toBeVisible();
  // Write-only: the field is empty again, offered only for replacing, and the secret is nowhere.
  await expect(captcha.getByLabel("Replace the secret key")).toHaveValue("");
  expect(await page.content()).not.toContain(secret);
  const stored = await readSite(request, account, siteId);
  expect(stored.site.captcha).toEqual({ provider: "challenge", siteKey, hasSecretKey: true });
  expect(stored.raw).not.toContain(secret);
  await page.reload();
  await expect(section(page, "Captcha").getByText("Now: challenge-based captcha, secret key stored.")).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  // It is in force: a submission without a token is refused.
  const unsolved = await send(request, source, { email: "ada@example.com" });
  expect([unsolved.status, unsolved.code]).toEqual([400, "CAPTCHA_REQUIRED"]);

  // Another kind needs its own secret: the stored one belongs to the challenge provider.
  await captcha.getByLabel("Score-based (reCAPTCHA v3)").check();
  await expect(captcha.getByLabel("Secret key")).toHaveValue("");
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  await expect(captcha.getByText("Type the secret key from your captcha provider.")).toBeVisible();
  await captcha.getByLabel("Secret key").fill(`${secret}-v3`);
  await captcha.getByLabel("Minimum score").fill("0.7");
  const recaptcha = await captcha.getByRole("textbox", { name: "reCAPTCHA v3 snippet" }).inputValue();
  expect(recaptcha).toContain(`https://www.google.com/recaptcha/api.js?render=${siteKey}`);
  expect(recaptcha).toContain('name="g-recaptcha-response"');
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  await expect(captcha.getByText("Now: score-based captcha, secret key stored.")).toBeVisible();
  expect((await readSite(request, account, siteId)).site.captcha).toEqual({
    provider: "score",
    siteKey,
    minScore: 0.7,
    hasSecretKey: true,
  });

  // The same kind keeps its secret when the field is left empty: only the score changes.
  await captcha.getByLabel("Minimum score").fill("0.3");
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  await expect.poll(async () => (await readSite(request, account, siteId)).site.captcha?.minScore).toBe(0.3);
  await expect(captcha.getByLabel("Replace the secret key")).toHaveValue("");

  await captcha.getByLabel("No captcha").check();
  await captcha.getByRole("button", { name: "Save captcha" }).click();
  await expect(captcha.getByText("Now: no captcha.")).toBeVisible();
  expect((await readSite(request, account, siteId)).site.captcha).toBeNull();
  expect((await send(request, source, { email: "ada@example.com" })).status).toBe(200);
});

test("a person's data is answered for on the privacy page, which the site settings link to", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId } = await siteWithSources(request, account, []);
  await settingsOf(page, siteId);
  const privacy = section(page, "A person's data (GDPR)");
  await expect(privacy.getByLabel("Email address to erase")).toBeHidden();
  await privacy.getByRole("link", { name: "Privacy settings page" }).click();
  await expect(page).toHaveURL(/\/settings\/privacy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
});

test("deleting a site: blocked with its reason while sources remain, refused (409) when a form appears meanwhile; once empty, a confirmation naming it", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, sources } = await siteWithSources(request, account, ["Contact form", "Quote form"]);
  await submit(request, sources[0] as { url: string; secret: string }, { email: "ada@example.com" });
  await settingsOf(page, siteId);
  const danger = section(page, "Delete this site");
  await expect(danger).toContainText("This site still has 2 sources and 1 form (archived ones count)");
  await expect(danger.getByRole("button", { name: "Delete site" })).toBeDisabled();

  for (const source of sources) await removeSource(request, account, siteId, source.id);
  await page.reload();
  await expect(danger).toContainText("The site has no sources or forms left: it can be deleted.");

  // Someone builds a form meanwhile: the API refuses (409), the page says why and shows the new count.
  const { form } = await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${siteId}/forms`, {
    name: "Built meanwhile",
  });
  await danger.getByRole("button", { name: "Delete site" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete site" }).click();
  await expect(danger.getByRole("alert")).toHaveText("The site still has sources or forms. (forms: 1 left)");
  await expect(danger).toContainText("This site still has 1 form (archived ones count)");
  await expect(danger.getByRole("button", { name: "Delete site" })).toBeDisabled();
  await apiAs(request, account, "DELETE", `/api/v1/forms/${form.id}`);
  await apiAs(request, account, "DELETE", `/api/v1/forms/${form.id}?permanent=true`);

  await page.reload();
  await expect(danger).toContainText("The site has no sources or forms left: it can be deleted.");
  await danger.getByRole("button", { name: "Delete site" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete Marketing site?" });
  await expect(dialog).toContainText("This deletes the site Marketing site for good");
  await dialog.getByRole("button", { name: "Delete site" }).click();
  await expect(page).toHaveURL(/\/$/);
  const gone = await request.get(`/api/v1/sites/${siteId}`, { headers: { authorization: `Bearer ${account.token}` } });
  expect(gone.status()).toBe(404);
});

test("a member sees every control disabled, each with the reason", async ({ page, request, account }) => {
  const { siteId } = await siteWithSources(request, account, []);
  const member = await memberOf(request, account);
  await signIn(page, member);
  await settingsOf(page, siteId);
  const general = section(page, "General");
  await expect(general.getByRole("button", { name: "Save settings" })).toBeDisabled();
  await expect(general.getByLabel("Site name")).toBeDisabled();
  await expect(general.getByText("Your role (member) cannot change a site's settings. Ask an owner or admin.")).toBeVisible();
  const captcha = section(page, "Captcha");
  await expect(captcha.getByRole("button", { name: "Save captcha" })).toBeDisabled();
  await expect(captcha.getByLabel("No captcha")).toBeDisabled();
  await expect(section(page, "A person's data (GDPR)").getByRole("link", { name: "Privacy settings page" })).toBeVisible();
  const danger = section(page, "Delete this site");
  await expect(danger.getByRole("button", { name: "Delete site" })).toBeDisabled();
  await expect(danger.getByText("Your role (member) cannot delete a site. Ask an owner or admin.")).toBeVisible();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("site settings with captcha snippets, a field error and a blocked deletion, light and dark", async ({
    signedIn: page,
    request,
    account,
  }) => {
    const { siteId, sources } = await siteWithSources(request, account, ["Contact form"]);
    await submit(request, sources[0] as { url: string; secret: string }, { email: "ada@example.com" });
    await settingsOf(page, siteId);
    await expect(page.getByRole("heading", { level: 1, name: "Settings of Marketing site" })).toBeVisible();
    await section(page, "Captcha").getByLabel("Challenge-based (hCaptcha or Cloudflare Turnstile)").check();
    await section(page, "General").getByLabel("Domain").fill("not a domain");
    await section(page, "General").getByRole("button", { name: "Save settings" }).click();
    await expect(section(page, "General").getByLabel("Domain")).toHaveAttribute("aria-invalid", "true");
    await expectAccessibleInBothThemes(page, "site settings");

    await expect(section(page, "Delete this site").getByRole("button", { name: "Delete site" })).toBeDisabled();
  });
});

test("another organization's site is not found, and shows nothing of it", async ({ signedIn: page, request }) => {
  const stranger = await createAccount(request);
  const { siteId } = await siteWithSources(request, stranger, ["Their form"]);
  await settingsOf(page, siteId);
  // The site layout answers for every section of a site it cannot read.
  await expect(page.getByRole("alert")).toContainText("This site does not exist, or it belongs to another organization.");
  await expect(page.getByRole("heading", { level: 1 })).toBeHidden();
  await expect(page.getByRole("navigation", { name: "Site" })).toBeHidden();
});
