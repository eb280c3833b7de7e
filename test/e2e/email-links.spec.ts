import { randomUUID } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { type Account, apiAs, createAccount, expect, PASSWORD, signIn, test } from "./support/fixtures";
import { emailedLinkTokens } from "./support/settings";

/**
 * An emailed link's page does nothing on load (mail scanners open links), confirms only on its
 * button from the account's own session, and offers "this was not me", which takes the address back.
 */

type Me = { user: { email: string; emailVerified: boolean; emailLost: boolean }; organization: { id: string; name: string } };
const meOf = (request: APIRequestContext, account: Account) => apiAs<Me>(request, account, "GET", "/api/v1/auth/me");

/** The newest link token emailed to `email`, once `count` have arrived. */
async function linkTo(request: APIRequestContext, email: string, count = 1): Promise<string> {
  await expect.poll(async () => (await emailedLinkTokens(request, email)).length).toBeGreaterThanOrEqual(count);
  return (await emailedLinkTokens(request, email)).at(-1) as string;
}

/** An account signed up through the API with `email` (another person's address, for a squatter). */
async function accountWith(request: APIRequestContext, email: string, name: string, organizationName: string): Promise<Account> {
  const response = await request.post("/api/v1/auth/signup", { data: { email, password: PASSWORD, name, organizationName } });
  expect(response.status(), await response.text()).toBe(201);
  const { data } = (await response.json()) as { data: { token: string } };
  return { email, password: PASSWORD, name, organizationName, token: data.token };
}

test("a verification link opened and left alone confirms nothing, signed in or not", async ({ page, request, account }) => {
  const token = await linkTo(request, account.email);
  await page.goto(`/verify-email#token=${token}`);
  await expect(
    page.getByText(
      `This link confirms ${account.email} for the account “${account.name}” in the organization “${account.organizationName}”.`,
    ),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect((await meOf(request, account)).user.emailVerified).toBe(false);

  // Signed in as the account: the button is there, and nothing happens until it is pressed.
  await signIn(page, account);
  await page.goto(`/verify-email#token=${token}`);
  await expect(page.getByRole("button", { name: `Confirm ${account.email}` })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("button", { name: `Confirm ${account.email}` })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect((await meOf(request, account)).user.emailVerified).toBe(false);
});

test("the confirm button works, after signing in on the link's own page", async ({ page, request, account }) => {
  const token = await linkTo(request, account.email);
  await page.goto(`/verify-email#token=${token}`);
  // The address is filled in from the link; the token stays in this page's fragment.
  await expect(page.getByLabel("Email")).toHaveValue(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText(`You are signed in as ${account.name} (${account.email})`)).toBeVisible();
  expect(new URL(page.url()).hash).toBe(`#token=${token}`);
  await page.getByRole("button", { name: `Confirm ${account.email}` }).click();
  await expect(page.getByRole("status")).toContainText(`${account.email} is confirmed.`);
  expect((await meOf(request, account)).user.emailVerified).toBe(true);
  await page.getByRole("link", { name: "Go to your dashboard" }).click();
  await expect(page.getByText("Please confirm your email address")).toHaveCount(0);
});

test("signed in as another account, the confirmation is refused and the person can switch", async ({
  page,
  request,
  account,
}) => {
  const token = await linkTo(request, account.email);
  const other = await createAccount(request);
  await signIn(page, other);
  await page.goto(`/verify-email#token=${token}`);
  await page.getByRole("button", { name: `Confirm ${account.email}` }).click();
  await expect(page.getByRole("alert")).toContainText("This link is for another account");
  expect((await meOf(request, account)).user.emailVerified).toBe(false);
  expect((await meOf(request, other)).user.emailVerified).toBe(false);
  await page.getByRole("button", { name: "Sign in as another account" }).click();
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: `Confirm ${account.email}` }).click();
  await expect(page.getByRole("status")).toContainText("is confirmed");
  expect((await meOf(request, account)).user.emailVerified).toBe(true);
});

test("'this was not me' takes the address back; the address then signs in to its owner's account", async ({
  page,
  browser,
  request,
}) => {
  const victim = `victim-${randomUUID().slice(0, 8)}@example.com`;
  const squatter = await accountWith(request, victim, "Mallory", "Squat Inc");
  const token = await linkTo(request, victim);
  await page.goto(`/verify-email#token=${token}`);
  await expect(page.getByText(`for the account “Mallory” in the organization “Squat Inc”`)).toBeVisible();
  await page.getByRole("link", { name: "Take my address back" }).click();
  await expect(page.getByRole("heading", { name: "Take back your email address" })).toBeVisible();
  await expect(page.getByText(`The account “Mallory” in the organization “Squat Inc” was created with ${victim}`)).toBeVisible();
  // Opening the reclaim page took nothing.
  await page.waitForLoadState("networkidle");
  expect((await meOf(request, squatter)).user.emailLost).toBe(false);

  await page.getByLabel("Your name").fill("Victoria");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Organization name").fill("Mine Ltd");
  await page.getByRole("button", { name: "Take back my address" }).click();
  await expect(page.getByText("Victoria · Mine Ltd")).toBeVisible();
  await expect(page.getByText("Please confirm your email address")).toHaveCount(0);
  expect((await meOf(request, squatter)).user).toMatchObject({ email: victim, emailLost: true });

  const context = await browser.newContext();
  const squatterPage = await context.newPage();
  await squatterPage.goto("/sign-in");
  await squatterPage.getByLabel("Email").fill(victim);
  await squatterPage.getByLabel("Password").fill(PASSWORD);
  await squatterPage.getByRole("button", { name: "Sign in" }).click();
  // Signing in with the address reaches its owner's account now, not the squatter's.
  await expect(squatterPage.getByText("Victoria · Mine Ltd")).toBeVisible();
  await context.close();
});

test("an invite refused as EMAIL_TAKEN offers a reclaim link, which joins the inviting organization", async ({
  page,
  request,
  account,
}) => {
  const invited = `invited-${randomUUID().slice(0, 8)}@example.com`;
  await accountWith(request, invited, "Squatter", "Elsewhere");
  const { inviteUrl } = await apiAs<{ inviteUrl: string }>(request, account, "POST", "/api/v1/team/invites", {
    email: invited,
    role: "member",
  });
  await page.goto(inviteUrl);
  await page.getByLabel("Your name").fill("Ivy");
  await page.getByLabel("Email").fill(invited);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Accept the invite" }).click();
  await expect(page.getByRole("alert")).toContainText("already exists");
  await page.getByRole("button", { name: "Email me a link to take it back" }).click();
  await expect(page.getByRole("status")).toContainText("it also accepts your invite");

  const token = await linkTo(request, invited, 2);
  await page.goto(`/reclaim-email#token=${token}`);
  await expect(page.getByText(`You join ${account.organizationName} as member`)).toBeVisible();
  await expect(page.getByLabel("Organization name")).toHaveCount(0);
  await page.getByLabel("Your name").fill("Ivy");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Take back my address" }).click();
  await expect(page.getByText(`Ivy · ${account.organizationName}`)).toBeVisible();
});

test("Account: a new address confirmed from its link; a reclaimed account is told and moves", async ({ page, request }) => {
  const address = `typo-${randomUUID().slice(0, 8)}@example.com`;
  const lost = await accountWith(request, address, "Tom Typo", "Typo Org");
  await signIn(page, lost);
  // The address's owner takes it back (through the API, with the link the address received).
  const reclaim = await request.post("/api/v1/auth/signup", {
    data: {
      email: address,
      password: PASSWORD,
      name: "Owner",
      organizationName: "Owner Org",
      reclaimToken: await linkTo(request, address),
    },
  });
  expect(reclaim.status()).toBe(201);
  await page.goto("/settings/account");
  await expect(page.getByText(`The owner of ${address} took that address back`)).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByText("The owner of this address took it back")).toBeVisible();
  await expect(main.getByRole("button", { name: "Send a new verification link" })).toHaveCount(0);

  const own = `own-${randomUUID().slice(0, 8)}@example.com`;
  await main.getByLabel("New email address").fill(own);
  await main.getByLabel("Your password").fill("not my password");
  await main.getByRole("button", { name: "Send a confirmation link" }).click();
  await expect(main.getByText("This is not your current password")).toBeVisible();
  await main.getByLabel("Your password").fill(PASSWORD);
  await main.getByRole("button", { name: "Send a confirmation link" }).click();
  await expect(main.getByRole("status")).toContainText(`A link is on its way to ${own}`);

  await page.goto(`/verify-email#token=${await linkTo(request, own)}`);
  await expect(
    page.getByText(`This link makes ${own} the new address of the account “Tom Typo” in the organization “Typo Org”.`),
  ).toBeVisible();
  await page.getByRole("button", { name: `Use ${own} from now on` }).click();
  await expect(page.getByRole("status")).toContainText(`${own} is confirmed as your account's address`);
  await page.goto("/settings/account");
  await expect(page.getByRole("main").getByText(own, { exact: true })).toBeVisible();
  await expect(page.getByText("took that address back")).toHaveCount(0);
  await expect(page.getByRole("main").getByText("Verified.")).toBeVisible();
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the verify-email and reclaim-email pages, and the account's address form, in both themes", async ({
    page,
    request,
    account,
  }) => {
    const token = await linkTo(request, account.email);
    await page.goto(`/verify-email#token=${token}`);
    await expect(page.getByRole("heading", { name: "This was not me" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "verify-email, signed out");
    await page.goto(`/reclaim-email#token=${token}`);
    await expect(page.getByRole("button", { name: "Take back my address" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "reclaim-email");
    await page.goto("/reclaim-email#token=inlet_eml_notarealtoken");
    await expect(page.getByRole("alert")).toBeVisible();
    await expectAccessibleInBothThemes(page, "reclaim-email with a broken link");

    await signIn(page, account);
    await page.goto(`/verify-email#token=${token}`);
    await expect(page.getByRole("button", { name: `Confirm ${account.email}` })).toBeVisible();
    await expectAccessibleInBothThemes(page, "verify-email, signed in");
    await page.goto("/settings/account");
    await page.getByRole("button", { name: "Change email address" }).click();
    await page.getByLabel("New email address").fill("not-an-address");
    await page.getByLabel("Your password").fill(PASSWORD);
    await page.getByRole("button", { name: "Send a confirmation link" }).click();
    await expect(page.getByLabel("New email address")).toHaveAttribute("aria-invalid", "true");
    await expectAccessibleInBothThemes(page, "account with the address form and an error");
  });
});
