import type { APIRequestContext, Page } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { type Account, expect, signIn, test } from "./support/fixtures";
import { newestResetLink, otherSession, sessionWorks } from "./support/password";

/** A forgotten password, a changed one, the other sessions, the name (docs/accounts.md). */

const NEW_PASSWORD = "a fresh passphrase 2";

/** Opens an emailed link as a person would, on the dashboard the test stack serves. */
const open = (page: Page, link: string) => {
  const url = new URL(link);
  return page.goto(url.pathname + url.hash);
};

async function askForReset(page: Page, email: string) {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send the link" }).click();
  await expect(page.getByRole("status")).toContainText(`We sent an email to ${email}`);
}

const section = (page: Page, name: string) => page.getByRole("region", { name });

/** The account page, with another session of the account open elsewhere (a bearer sign-in). */
async function accountPageWithAnotherSession(page: Page, request: APIRequestContext, account: Account) {
  const elsewhere = await otherSession(request, account);
  await page.goto("/settings/account");
  return { elsewhere, password: section(page, "Password and sessions") };
}

test("a forgotten password: the emailed link's page sets the new one on its button, and every session ends", async ({
  page,
  request,
  account,
}) => {
  await askForReset(page, account.email);
  const link = await newestResetLink(request, account.email);
  expect(new URL(link).search).toBe("");

  await open(page, link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // Opening the page changed nothing: the old password and the session still work.
  expect(await sessionWorks(request, account.token)).toBe(true);
  expect((await request.post("/api/v1/auth/login", { data: { email: account.email, password: account.password } })).ok()).toBe(
    true,
  );

  await page.getByLabel("New password").fill("short");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByLabel("New password")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("New password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("status")).toContainText(`The password of ${account.email} is changed`);
  expect(await sessionWorks(request, account.token)).toBe(false);

  await page.getByRole("link", { name: "Sign in with the new password" }).click();
  await signIn(page, { email: account.email, password: NEW_PASSWORD });

  // The link worked once.
  await open(page, link);
  await page.getByLabel("New password").fill("yet another passphrase");
  await page.getByRole("button", { name: "Set the new password" }).click();
  await expect(page.getByRole("alert")).toHaveText("This link is not valid any more. Ask for a new one.");
  await expect(page.getByRole("button", { name: "Set the new password" })).toBeDisabled();
  await page.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
});

test("the forgot-password page says the same for an address no account uses", async ({ page }) => {
  const nobody = `nobody-${Date.now().toString(36)}@example.com`;
  await askForReset(page, nobody);
  await expect(page.getByRole("status")).toHaveText(
    `We sent an email to ${nobody}. If an account uses this address, it holds a link to choose a new password; the link works once, for a limited time. Nothing arrived? Check the spam folder, or the address.`,
  );
});

test("a reset link without its token says so and offers a new one", async ({ page }) => {
  await page.goto("/reset-password");
  await expect(page.getByRole("alert")).toContainText("This link is incomplete");
  await expect(page.getByLabel("New password")).toHaveCount(0);
  await page.getByRole("link", { name: "Ask for a new link" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test("Account: the password changes with the current one; other sessions end, this one stays", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { elsewhere, password } = await accountPageWithAnotherSession(page, request, account);
  await password.getByLabel("Current password").fill("not my password");
  await password.getByLabel("New password").fill(NEW_PASSWORD);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
  await expect(password.getByText("This is not your current password")).toBeVisible();
  expect(await sessionWorks(request, elsewhere)).toBe(true);

  await password.getByLabel("Current password").fill(account.password);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(page.getByText("Password changed. Every other session is signed out.", { exact: true })).toBeVisible();
  await expect(password.getByLabel("Current password")).toHaveValue("");
  expect(await sessionWorks(request, elsewhere)).toBe(false);
  expect(await sessionWorks(request, account.token)).toBe(false);
  // This browser's session stays.
  await page.reload();
  await expect(page.getByRole("heading", { name: "Account" })).toBeVisible();
  const login = await request.post("/api/v1/auth/login", { data: { email: account.email, password: NEW_PASSWORD } });
  expect(login.ok()).toBe(true);
});

test("Account: sign out everywhere else, and a new display name everywhere it shows", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { elsewhere, password } = await accountPageWithAnotherSession(page, request, account);
  await password.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(password.getByRole("status")).toHaveText("Every other session is signed out.");
  expect(await sessionWorks(request, elsewhere)).toBe(false);
  expect(await sessionWorks(request, account.token)).toBe(false);

  const you = section(page, "You");
  await expect(you.getByRole("button", { name: "Save name" })).toBeDisabled();
  await you.getByLabel("Your name").fill("Grace Renamed");
  await you.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText(`Grace Renamed · ${account.organizationName}`)).toBeVisible();
  await page.reload();
  await expect(section(page, "You").getByLabel("Your name")).toHaveValue("Grace Renamed");
  await page.goto("/settings/team");
  await expect(page.getByRole("rowheader", { name: /^Grace Renamed \(you\)/ })).toBeVisible();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("forgot-password and reset-password pages, their answers and errors, light and dark", async ({
    page,
    request,
    account,
  }) => {
    await page.goto("/forgot-password");
    await expectAccessible(page, "forgot-password");
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "forgot-password with a field error");
    await page.getByLabel("Email").fill(account.email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    await expectAccessible(page, "forgot-password, sent");

    await open(page, await newestResetLink(request, account.email));
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await expectAccessible(page, "reset-password");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    await expectAccessible(page, "reset-password, done");

    // A new document: only the fragment differs from the page before, which the browser would not reload.
    await page.goto("/sign-in");
    await page.goto("/reset-password#token=inlet_eml_notarealtoken");
    await page.getByLabel("New password").fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Set the new password" }).click();
    await expect(page.getByRole("alert")).toBeVisible();
    await expectAccessible(page, "reset-password with a spent link");
    await page.goto("/reset-password");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectAccessible(page, "reset-password without a token");
  });

  test("the account page's name, password and sessions, with a field error, light and dark", async ({ signedIn: page }) => {
    await page.goto("/settings/account");
    await expect(page.getByRole("heading", { name: "Password and sessions" })).toBeVisible();
    await expectAccessible(page, "account");
    const password = section(page, "Password and sessions");
    await password.getByLabel("Current password").fill("not my password");
    await password.getByLabel("New password").fill(NEW_PASSWORD);
    await password.getByRole("button", { name: "Change password" }).click();
    await expect(password.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await password.getByRole("button", { name: "Sign out everywhere else" }).click();
    await expect(password.getByRole("status")).toBeVisible();
    await section(page, "You").getByLabel("Your name").fill("");
    await section(page, "You").getByRole("button", { name: "Save name" }).click();
    await expect(section(page, "You").getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "account with errors and a status");
  });
});
