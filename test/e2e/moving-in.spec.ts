import type { Page } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { type Account, apiAs, expect, signIn, submit, test } from "./support/fixtures";
import { addMember } from "./support/settings";
import { createSourceInPage, openSiteWithOneSource, shown } from "./support/sources";
import { widths } from "./support/triage";

/**
 * A source's "Coming from another service?" (docs/moving-in.md): the service's words, its form
 * converted, the switch that sets the source's compatibility (checked through the API), the
 * Netlify honeypot's name, and the link to the form's Import page.
 */

type Compat = { service: string; honeypotField: string | null } | null;

const compatibility = async (page: Page, account: Account, siteId: string, webhookId: string) =>
  (await apiAs<{ compatibility: Compat }>(page.request, account, "GET", `/api/v1/sites/${siteId}/webhooks/${webhookId}`))
    .compatibility;

/** Opens the source's setup and its "Coming from another service?" disclosure. */
async function openMovingIn(page: Page) {
  await page.getByRole("button", { name: "Setup" }).click();
  const dialog = page.getByRole("dialog", { name: "Set up Contact form" });
  const disclosure = dialog.getByText("Coming from another service?");
  await disclosure.click();
  return dialog;
}

test("picking a service shows what to change and the form converted; the switch sets the source's compatibility", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, source } = await openSiteWithOneSource(page, request, account);
  // A first submission makes the source's form, whose Import page the panel links to.
  await submit(request, source, { email: "ada@example.com" });
  await expect
    .poll(
      async () =>
        (await apiAs<{ formId: string | null }>(request, account, "GET", `/api/v1/sites/${siteId}/webhooks/${source.id}`)).formId,
    )
    .toBeTruthy();
  await page.reload();

  const dialog = await openMovingIn(page);
  const picker = dialog.getByLabel("The service your form posts to now");
  await expect(picker).toHaveValue("formspree");
  await expect(dialog.getByRole("definition").first()).toBeVisible();
  await expect(dialog.getByText("_gotcha", { exact: true })).toBeVisible();
  expect(await shown(dialog, "Your Formspree form, moved to Inlet")).toContain(`action="${source.url}?key=YOUR_WEBHOOK_SECRET"`);

  // Netlify Forms: form-name, its honeypot, the switch off until turned on.
  await picker.selectOption({ label: "Netlify Forms" });
  await expect(dialog.getByRole("listitem").filter({ hasText: "form-name" }).first()).toBeVisible();
  const netlifyForm = await shown(dialog, "Your Netlify Forms form, moved to Inlet");
  expect(netlifyForm).toContain('<input type="hidden" name="form-name" value="contact">');
  expect(netlifyForm).toContain('name="bot-field"');
  const netlifySwitch = dialog.getByRole("switch", { name: "Read Netlify Forms fields on this source" });
  await expect(netlifySwitch).not.toBeChecked();
  await netlifySwitch.click();
  await expect(dialog.getByRole("status").filter({ hasText: "Saved: Contact form reads Netlify Forms fields." })).toBeVisible();
  await expect(netlifySwitch).toBeChecked();
  expect(await compatibility(page, account, siteId, source.id)).toEqual({ service: "netlify", honeypotField: null });

  // The honeypot's name: an underscore name is refused beside the field, before anything is sent.
  const honeypot = dialog.getByLabel("Honeypot field name");
  await honeypot.fill("_trap");
  await expect(honeypot).toHaveAccessibleDescription(/starting with _ is a control field/);
  await expect(dialog.getByRole("button", { name: "Save the honeypot name" })).toBeDisabled();
  await honeypot.fill("website-url");
  expect(await shown(dialog, "Your Netlify Forms form, moved to Inlet")).toContain('name="website-url"');
  await dialog.getByRole("button", { name: "Save the honeypot name" }).click();
  await expect
    .poll(() => compatibility(page, account, siteId, source.id))
    .toEqual({ service: "netlify", honeypotField: "website-url" });
  // The converted Netlify form's post: form-name read, and the honeypot named here honoured (filled: spam, silently).
  const trapped = await request.post(`${source.url}?key=${source.secret}`, {
    form: { "form-name": "contact", name: "Bot", email: "bot@example.com", "website-url": "http://spam.example" },
    headers: { accept: "application/json" },
  });
  expect(trapped.status(), await trapped.text()).toBe(200);
  const { submissionId: botId } = (await trapped.json()) as { submissionId: string };
  const { submission: bot } = await apiAs<{
    submission: { data: Record<string, unknown>; spam: { isSpam: boolean; signals: { name: string; detail: string }[] } };
  }>(request, account, "GET", `/api/v1/submissions/${botId}`);
  expect(bot.spam.isSpam).toBe(true);
  expect(bot.spam.signals).toContainEqual(
    expect.objectContaining({ name: "honeypot", detail: expect.stringContaining("website-url") }),
  );
  expect(bot.data).toEqual({ name: "Bot", email: "bot@example.com" });

  // Web3Forms: the key moves into access_key; turning it on replaces Netlify.
  await picker.selectOption({ label: "Web3Forms" });
  const web3 = await shown(dialog, "Your Web3Forms form, moved to Inlet");
  expect(web3).toContain(`action="${source.url}"`);
  expect(web3).toContain('name="access_key" value="YOUR_WEBHOOK_SECRET"');
  const web3Switch = dialog.getByRole("switch", { name: "Read Web3Forms fields on this source" });
  await expect(web3Switch).not.toBeChecked();
  await expect(web3Switch).toHaveAccessibleDescription(/reads Netlify Forms fields now/);
  await web3Switch.click();
  await expect(web3Switch).toBeChecked();
  expect(await compatibility(page, account, siteId, source.id)).toEqual({ service: "web3forms", honeypotField: null });
  // The converted form's post, as a browser sends it: the secret in access_key, the subject honoured, neither stored.
  const post = (extra: Record<string, string> = {}) =>
    request.post(source.url, {
      form: { access_key: source.secret, subject: "Moving in from Web3Forms", name: "Ada", email: "ada@example.com", ...extra },
      headers: { accept: "application/json" },
    });
  const accepted = await post();
  expect(accepted.status(), await accepted.text()).toBe(200);
  const { submissionId } = (await accepted.json()) as { submissionId: string };
  const { submission } = await apiAs<{ submission: { data: Record<string, unknown>; metadata: { subject?: string } } }>(
    request,
    account,
    "GET",
    `/api/v1/submissions/${submissionId}`,
  );
  expect(submission.metadata.subject).toBe("Moving in from Web3Forms");
  expect(submission.data).toEqual({ name: "Ada", email: "ada@example.com" });
  await web3Switch.click();
  await expect(dialog.getByRole("status").filter({ hasText: "reads Inlet's own field names only" })).toBeVisible();
  await expect(web3Switch).not.toBeChecked();
  expect(await compatibility(page, account, siteId, source.id)).toBeNull();
  // Switched off, access_key is an ordinary field again: without ?key= the post has no secret.
  expect((await post()).status()).toBe(401);

  // The old submissions: the form's Import page.
  await dialog.getByRole("link", { name: "Import old submissions into this source's form" }).click();
  await expect(page).toHaveURL(/\/forms\/[^/]+\/import$/);
  await expect(page.getByRole("heading", { name: "Import", level: 2 })).toBeVisible();
});

test("right after a source is created, its setup offers the panel: the form converted with the new secret, the switch saved", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId } = await openSiteWithOneSource(page, request, account);
  const ready = await createSourceInPage(page, "Quote form");
  const secret = await shown(ready, "Secret");
  const url = await shown(ready, "Intake URL");
  await ready.getByText("Coming from another service?").click();
  expect(await shown(ready, "Your Formspree form, moved to Inlet")).toContain(`action="${url}?key=${secret}"`);
  const toggle = ready.getByRole("switch", { name: "Read Formspree fields on this source" });
  await expect(toggle).not.toBeChecked();
  await toggle.click();
  await expect(ready.getByRole("status").filter({ hasText: "Saved: Quote form reads Formspree fields." })).toBeVisible();
  // The panel reads the source as it now is, not as its creation answered it.
  await expect(toggle).toBeChecked();
  const { webhooks } = await apiAs<{ webhooks: { id: string; name: string }[] }>(
    request,
    account,
    "GET",
    `/api/v1/sites/${siteId}/webhooks`,
  );
  const created = webhooks.find((w) => w.name === "Quote form");
  expect(created).toBeDefined();
  expect(await compatibility(page, account, siteId, created?.id ?? "")).toEqual({ service: "formspree", honeypotField: null });
});

test("the onboarding's snippet step offers the panel for the source it created", async ({ signedIn: page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Welcome to Inlet" })).toBeVisible();
  await page.getByLabel("Site name").fill("Bakery");
  await page.getByRole("button", { name: "Create site" }).click();
  await page.getByLabel("Source name").fill("Contact form");
  await page.getByRole("button", { name: "Create source" }).click();
  const secret = await shown(page, "Secret");
  await page.getByText("Coming from another service?").click();
  await page.getByLabel("The service your form posts to now").selectOption({ label: "Web3Forms" });
  expect(await shown(page, "Your Web3Forms form, moved to Inlet")).toContain(`name="access_key" value="${secret}"`);
});

test("a member reads the panel; the switch is disabled with the reason beside it", async ({ page, request, account }) => {
  const { siteId } = await openSiteWithOneSource(page, request, account);
  const member = await addMember(request, account, "member", "Mo Member");
  await signIn(page, member);
  await page.goto(`/sites/${siteId}/sources`);
  const dialog = await openMovingIn(page);
  const toggle = dialog.getByRole("switch", { name: "Read Formspree fields on this source" });
  await expect(toggle).toBeDisabled();
  await expect(toggle).toHaveAccessibleDescription(/Your role \(member\) cannot change a site's settings/);
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the panel open, with a service on, passes axe in light and dark, also on a phone", async ({
    signedIn: page,
    request,
    account,
  }) => {
    const { siteId, source } = await openSiteWithOneSource(page, request, account);
    await apiAs(request, account, "PUT", `/api/v1/sites/${siteId}/webhooks/${source.id}`, {
      compatibility: { service: "netlify", honeypotField: null },
    });
    await page.reload();
    const dialog = await openMovingIn(page);
    await dialog.getByLabel("The service your form posts to now").selectOption({ label: "Netlify Forms" });
    await expect(dialog.getByRole("switch", { name: "Read Netlify Forms fields on this source" })).toBeChecked();
    await expectAccessibleInBothThemes(page, "a source's setup with Coming from another service? open");
    // On a phone: nothing scrolls sideways, and the same holds.
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByLabel("The service your form posts to now").selectOption({ label: "Web3Forms" });
    const { scroll, inner } = await widths(page);
    expect(scroll).toBeLessThanOrEqual(inner);
    await expectAccessibleInBothThemes(page, "a source's setup with Coming from another service? open, on a phone");
  });
});
