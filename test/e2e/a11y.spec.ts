import type { APIRequestContext } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { type Account, apiAs, createSource, expect, submit, test } from "./support/fixtures";

/**
 * axe-core on every page of the daily path, in the light and the dark theme: no
 * serious or critical WCAG 2.1 AA violation. axe is injected as a script, which the dashboard's
 * CSP refuses, so these contexts bypass the CSP (the other specs keep it).
 */
test.use({ bypassCSP: true });
test.describe.configure({ mode: "parallel" });

/** A source with one lead and one flagged submission (honeypot filled, a script's user agent). */
async function sourceWithSubmissions(request: APIRequestContext, account: Account) {
  const source = await createSource(request, account);
  const lead = await submit(
    request,
    source,
    { name: "Ada Lovelace", email: "ada@example.com", message: "Please call me back about a quote." },
    { referer: "http://localhost/contact", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0" },
  );
  const spam = await submit(
    request,
    source,
    { name: "Cheap pills", email: "bot@example.com", message: "Buy now http://a.example http://b.example", _hp: "x" },
    { "user-agent": "python-requests/2.31" },
  );
  const { submission } = await apiAs<{ submission: { formId: string } }>(
    request,
    account,
    "GET",
    `/api/v1/submissions/${lead.submissionId}`,
  );
  return { ...source, formId: submission.formId, leadId: lead.submissionId, spamId: spam.submissionId };
}

test("sign-in, sign-up, invite and email-link pages", async ({ page, request, account }) => {
  await page.goto("/sign-in");
  await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expectAccessible(page, "sign-in");

  // A refused sign-in shows its message: the error colours are checked too.
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill("wrong-password-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectAccessible(page, "sign-in with an error");

  await page.goto("/sign-up");
  await page.getByLabel("Email").fill("not-an-email");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "sign-up with field errors");

  const invite = await apiAs<{ inviteToken: string }>(request, account, "POST", "/api/v1/team/invites", {
    email: `a11y-${Date.now().toString(36)}@example.com`,
    role: "member",
  });
  await page.goto(`/invite#token=${invite.inviteToken}`);
  await expect(page.getByRole("heading", { name: "Join your team" })).toBeVisible();
  await expectAccessible(page, "invite");

  await page.goto("/verify-email#token=inlet_eml_notarealtoken");
  await expect(page.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(page.getByRole("alert")).toBeVisible();
  await expectAccessible(page, "verify-email");
});

test("home with its guided start and with sites, and a site's sources with the setup dialog", async ({
  signedIn: page,
  context,
  request,
  account,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await expect(page.getByRole("heading", { name: "Welcome to Inlet" })).toBeVisible();
  await expectAccessible(page, "home with the guided start");

  const source = await createSource(request, account);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Sites" })).toBeVisible();
  await expectAccessible(page, "home with sites");

  await page.goto(`/sites/${source.siteId}/sources`);
  await expect(page.getByRole("button", { name: "Setup" })).toBeVisible();
  await expectAccessible(page, "a site's sources");
  await page.getByRole("button", { name: "Setup" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "a source's setup dialog");
  // A copy confirms itself in a toast (whose code loads with the first one): checked as well.
  await page.getByRole("button", { name: "Copy Intake URL" }).click();
  await expect(page.getByText("Intake URL copied", { exact: true })).toBeVisible();
  await expectAccessible(page, "the setup dialog with a toast");
});

test("a form's inbox, its spam folder and a submission's detail", async ({ signedIn: page, request, account }) => {
  const source = await sourceWithSubmissions(request, account);
  await page.goto(`/forms/${source.formId}`);
  await expect(page.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
  await expectAccessible(page, "a form's inbox");

  await page.goto(`/forms/${source.formId}/spam`);
  await expect(page.getByRole("cell", { name: /Score \d+/ })).toBeVisible();
  await expectAccessible(page, "the spam folder");

  await page.goto(`/submissions/${source.spamId}`);
  await expect(page.getByRole("heading", { name: /^Spam score/ })).toBeVisible();
  await expectAccessible(page, "a flagged submission");
  await page.goto(`/submissions/${source.leadId}`);
  await expect(page.getByRole("heading", { name: "Fields" })).toBeVisible();
  await expectAccessible(page, "a submission");
});

test("sign-in, the skip link and a dialog work from the keyboard alone, and focus returns", async ({
  page,
  request,
  account,
}) => {
  const source = await createSource(request, account);
  await page.goto("/sign-in");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Email")).toBeFocused();
  await page.keyboard.type(account.email);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Password")).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

  await page.goto(`/sites/${source.siteId}/sources`);
  const setup = page.getByRole("button", { name: "Setup" });
  await expect(setup).toBeVisible();
  // The first Tab of a signed-in page reaches the skip link, shown when focused.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeVisible();

  await setup.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Set up Contact form" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Intake URL" })).toBeFocused();
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("tab", { name: "HTML form" })).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(dialog.getByRole("tab", { name: "fetch()" })).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(setup).toBeFocused();
});
