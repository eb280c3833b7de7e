import type { Page } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { apiAs, expect, signIn, test } from "./support/fixtures";
import { addMember, createKey, emailedLinkTokens, me, platformAdmin, setPlan } from "./support/settings";

test.describe.configure({ mode: "parallel" });

const keyRow = (page: Page, name: string) =>
  page
    .getByRole("list", { name: "API keys" })
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name, exact: true }) });

const memberRow = (page: Page, name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });

/** Whether `text` appears anywhere in the page's document: its markup, attributes and input values. */
const pageHolds = async (page: Page, text: string) =>
  (await page.evaluate(
    `document.documentElement.outerHTML.includes(${JSON.stringify(text)}) ||
     [...document.querySelectorAll("input, textarea")].some((el) => el.value.includes(${JSON.stringify(text)}))`,
  )) === true;

test("API keys: created with chosen permissions, the secret shown once, then revoked and deleted", async ({
  page,
  request,
  account,
}) => {
  await setPlan(request, account, "agency");
  await signIn(page, account);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await expect(page).toHaveURL(/\/settings\/api-keys$/);
  await expect(page.getByText("0 of 25")).toBeVisible();
  await expect(page.getByText("No API keys yet.")).toBeVisible();

  await page.getByRole("button", { name: "New API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key" });
  await dialog.getByLabel("Key name").fill("CRM sync");
  // Grouped by area; the restricted ones are not offered, and the form says why.
  await expect(dialog.getByRole("group", { name: "Submissions" }).getByRole("checkbox")).toHaveCount(3);
  await expect(dialog.getByRole("checkbox")).toHaveCount(13);
  await expect(dialog.getByText("team.invite")).toBeVisible();
  await expect(dialog.getByText(/No API key may hold them/)).toBeVisible();
  await dialog.getByRole("checkbox", { name: /Delete submissions/ }).uncheck();
  await dialog.getByRole("checkbox", { name: /Delete sites/ }).uncheck();
  await dialog.getByLabel("Expires after (days)").fill("30");
  await dialog.getByRole("button", { name: "Create API key" }).click();

  const shown = page.getByRole("dialog", { name: "CRM sync is ready" });
  const secretField = shown.getByLabel("Secret key", { exact: true });
  await expect(secretField).toHaveValue(/^inlet_sk_[0-9A-Za-z]+$/);
  const secret = await secretField.inputValue();
  await expect(shown.getByRole("button", { name: "Copy Secret key" })).toBeVisible();
  await expect(shown.getByText(/only time it is shown/)).toBeVisible();
  // The secret is the key itself: it reads sites, and lacks what was left unticked.
  const sites = await request.get("/api/v1/sites", { headers: { authorization: `Bearer ${secret}` } });
  expect(sites.status()).toBe(200);
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "Kept" });
  const refused = await request.delete(`/api/v1/sites/${site.id}`, { headers: { authorization: `Bearer ${secret}` } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("INSUFFICIENT_PERMISSION");

  await shown.getByRole("button", { name: "Close" }).click();
  await expect(shown).toBeHidden();
  expect(await pageHolds(page, secret)).toBe(false);
  const row = keyRow(page, "CRM sync");
  await expect(row).toContainText("Active");
  await expect(row).toContainText(`${secret.slice(0, 15)}…`);
  await expect(row).toContainText("300 requests a minute");
  await expect(row).toContainText(`Created by${account.name} (${account.email})`);
  await expect(row).toContainText("sites.edit");
  await expect(row).not.toContainText("sites.delete");
  await expect(page.getByText("1 of 25")).toBeVisible();
  await page.reload();
  // Read afresh: the request made with it above shows as its last use.
  await expect(keyRow(page, "CRM sync")).toContainText(/Last used(now|\d+ seconds? ago)/);
  expect(await pageHolds(page, secret)).toBe(false);

  await keyRow(page, "CRM sync").getByRole("button", { name: "Revoke" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke CRM sync?" });
  await expect(confirm).toContainText("API_KEY_REVOKED");
  await confirm.getByRole("button", { name: "Revoke" }).click();
  await expect(keyRow(page, "CRM sync")).toContainText("Revoked");
  const revoked = await request.get("/api/v1/sites", { headers: { authorization: `Bearer ${secret}` } });
  expect(revoked.status()).toBe(401);
  expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe("API_KEY_REVOKED");
  await expect(page.getByText("1 of 25")).toBeVisible();

  await keyRow(page, "CRM sync").getByRole("button", { name: "Delete permanently" }).click();
  await page
    .getByRole("alertdialog", { name: "Permanently delete CRM sync?" })
    .getByRole("button", { name: "Delete permanently" })
    .click();
  await expect(page.getByText("No API keys yet.")).toBeVisible();
  await expect(page.getByText("0 of 25")).toBeVisible();
});

test("API keys: a refused expiry and an empty permission list are shown beside their fields", async ({
  page,
  request,
  account,
}) => {
  await setPlan(request, account, "enterprise");
  await signIn(page, account);
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "New API key" }).click();
  const dialog = page.getByRole("dialog", { name: "New API key" });
  await dialog.getByLabel("Key name").fill("Bad expiry");
  await dialog.getByLabel("Expires after (days)").fill("0");
  await dialog.getByRole("button", { name: "Create API key" }).click();
  await expect(dialog.getByLabel("Expires after (days)")).toHaveAttribute("aria-invalid", "true");
  for (const box of await dialog.getByRole("checkbox").all()) await box.uncheck();
  await dialog.getByLabel("Expires after (days)").fill("");
  await dialog.getByRole("button", { name: "Create API key" }).click();
  await expect(dialog.getByRole("group", { name: "Permissions" })).toHaveAccessibleDescription(/.+/);
  await expect(dialog.getByLabel("Expires after (days)")).not.toHaveAttribute("aria-invalid", "true");
  // Nothing was created.
  await page.keyboard.press("Escape");
  await expect(page.getByText("0 of 25")).toBeVisible();
});

test("API keys: a member reads that the role does not allow them, a Free owner that the plan does not", async ({
  page,
  request,
  account,
}) => {
  await signIn(page, account);
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { name: "API keys are not available to you" })).toBeVisible();
  await expect(page.getByText(/come with the Agency and Enterprise plans; .* is on the Free plan/)).toBeVisible();
  await expect(page.getByRole("button", { name: "New API key" })).toHaveCount(0);

  await setPlan(request, account, "agency");
  const member = await addMember(request, account, "member", "Mia Member");
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, member);
  await page.goto("/settings/api-keys");
  await expect(page.getByText(/managed by the organization's owner and admins; your role is member/)).toBeVisible();
  await expect(page.getByRole("button", { name: "New API key" })).toHaveCount(0);
  // The team is there to look at, without the controls a member cannot use, and says why.
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Team" }).click();
  await expect(page.getByText("Only the owner and admins can invite people.")).toBeVisible();
  await expect(page.getByText("Only the owner and admins can change roles or remove members.")).toBeVisible();
  await expect(memberRow(page, account.name)).toContainText("Owner");
  await expect(page.getByRole("button", { name: /Remove|Change role/ })).toHaveCount(0);
  await expect(page.getByLabel("Email address")).toHaveCount(0);
});

test("Team: invite link with its token in the fragment, a role change, and a removal that orphans the member's keys", async ({
  page,
  request,
  account,
}) => {
  await setPlan(request, account, "agency");
  const admin = await addMember(request, account, "admin", "Ada Admin");
  const member = await addMember(request, account, "member", "Max Member");
  await createKey(request, admin, "Ada's export job");
  await createKey(request, account, "Owner's key");
  await signIn(page, account);
  await page.goto("/settings/team");
  await expect(memberRow(page, account.name)).toContainText("Owner");
  await expect(memberRow(page, account.name)).toContainText("The owner's role cannot change.");
  await expect(memberRow(page, "Ada Admin").getByLabel("Role of Ada Admin", { exact: true })).toHaveValue("admin");

  // Invite: a link to copy, the token after '#'.
  await page.getByLabel("Email address").fill("new.person@example.com");
  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Create invite link" }).click();
  const link = page.getByLabel("Invite link", { exact: true });
  await expect(link).toHaveValue(/\/invite#token=inlet_inv_[0-9A-Za-z]+$/);
  const url = new URL(await link.inputValue());
  expect(url.search).toBe("");
  expect(url.origin).toBe(new URL(page.url()).origin);
  await expect(page.getByText(/Send this link to new\.person@example\.com \(as an admin\)/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy Invite link" })).toBeVisible();

  // Change a role.
  await memberRow(page, "Max Member").getByLabel("Role of Max Member", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Change the role of Max Member" }).click();
  await expect(page.getByText("Max Member is now an admin", { exact: true })).toBeVisible();
  const team = await apiAs<{ members: { id: string; role: string }[] }>(request, account, "GET", "/api/v1/team");
  expect(team.members.find((m) => m.id === member.userId)?.role).toBe("admin");

  // Remove: the dialog says what happens to the keys the member created, and names them.
  await memberRow(page, "Ada Admin").getByRole("button", { name: "Remove Ada Admin" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Remove Ada Admin?" });
  await expect(confirm).toContainText("API_KEY_ORPHANED");
  await expect(confirm).toContainText("Active keys of Ada Admin that stop working: Ada's export job.");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(memberRow(page, "Ada Admin")).toHaveCount(0);
  const gone = await request.get("/api/v1/auth/me", { headers: { authorization: `Bearer ${admin.token}` } });
  expect(gone.status()).toBe(401);

  // The orphaned key is marked as such on the keys page.
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "API keys" }).click();
  await expect(keyRow(page, "Ada's export job")).toContainText("Orphaned: its creator left the organization");
  await expect(keyRow(page, "Ada's export job")).toContainText("API_KEY_ORPHANED");
  await expect(keyRow(page, "Owner's key")).toContainText("Active");
});

test("Team: an admin who makes themselves a member loses the controls at once", async ({ page, request, account }) => {
  const admin = await addMember(request, account, "admin", "Ada Admin");
  await signIn(page, admin);
  await page.goto("/settings/team");
  await memberRow(page, "Ada Admin").getByLabel("Role of Ada Admin", { exact: true }).selectOption("member");
  await page.getByRole("button", { name: "Change the role of Ada Admin" }).click();
  await expect(page.getByText("Only the owner and admins can change roles or remove members.")).toBeVisible();
  await expect(page.getByText("Only the owner and admins can invite people.")).toBeVisible();
  await expect(page.getByRole("banner")).toContainText("(member)");
  await expect(page.getByRole("button", { name: /Remove|Change role/ })).toHaveCount(0);
});

test("Account: verification resent, the organization renamed (an empty name refused), sign out", async ({
  page,
  request,
  account,
}) => {
  await signIn(page, account);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings\/account$/);
  const main = page.getByRole("main");
  await expect(main).toContainText("Not verified yet");
  await expect.poll(async () => (await emailedLinkTokens(request, account.email)).length).toBe(1);
  await main.getByRole("button", { name: "Send a new verification link" }).click();
  await expect(main.getByRole("status")).toContainText(`A new link is on its way to ${account.email}`);
  await expect.poll(async () => (await emailedLinkTokens(request, account.email)).length).toBe(2);

  // The new link verifies the address; the page shows it.
  const tokens = await emailedLinkTokens(request, account.email);
  const verified = await request.post("/api/v1/auth/verify-email", {
    headers: { authorization: `Bearer ${account.token}` },
    data: { token: tokens.at(-1) },
  });
  expect(verified.status()).toBe(200);
  await page.reload();
  await expect(main.getByText("Verified.")).toBeVisible();
  await expect(main.getByRole("button", { name: "Send a new verification link" })).toHaveCount(0);
  await expect(main).toContainText("Free");

  await main.getByLabel("Organization name").fill("   ");
  await main.getByRole("button", { name: "Rename" }).click();
  await expect(main.getByLabel("Organization name")).toHaveAttribute("aria-invalid", "true");
  await main.getByLabel("Organization name").fill("Acme Leads");
  await main.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("banner")).toContainText("Acme Leads");
  expect((await me(request, account)).organization.name).toBe("Acme Leads");

  await main.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  const after = await page.request.get("/api/v1/auth/me");
  expect(after.status()).toBe(401);
});

test("Platform admins: the Organizations page lists and searches organizations and changes a plan", async ({
  page,
  request,
  account,
}) => {
  const { organization } = await me(request, account);
  const admin = await platformAdmin(request);
  // Anyone else has no link to it, and is told what it is if they come by URL.
  await signIn(page, account);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organizations" })).toHaveCount(0);
  await page.goto("/admin/organizations");
  await expect(page.getByRole("heading", { name: "For platform admins only" })).toBeVisible();
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, admin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Organizations" }).click();
  await expect(page).toHaveURL(/\/admin\/organizations$/);
  await page.getByLabel("Search organizations").fill(account.organizationName);
  await expect(page).toHaveURL(/\?q=/);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(2); // the header and the one organization
  const row = memberRow(page, account.organizationName);
  await expect(row).toContainText(organization.id);
  await expect(row.getByRole("cell").first()).toHaveText("Free");
  await row.getByLabel(`New plan for ${account.organizationName}`).selectOption("agency");
  await row.getByRole("button", { name: "Change plan" }).click();
  const confirm = page.getByRole("alertdialog", { name: `Move ${account.organizationName} to the Agency plan?` });
  await expect(confirm).toContainText("It can create and use API keys from now on.");
  await confirm.getByRole("button", { name: "Change plan" }).click();
  await expect(row.getByRole("cell").first()).toHaveText("Agency");
  expect((await me(request, account)).organization.plan).toBe("agency");

  // Searching by the exact id finds it too; a name nobody has finds nothing.
  await page.getByLabel("Search organizations").fill(organization.id);
  await expect(rows).toHaveCount(2);
  await page.getByLabel("Search organizations").fill(`no such organization ${Date.now()}`);
  await expect(rows).toHaveCount(1);
  await expect(page.getByText(/^0 of the \d+ organizations/)).toBeVisible();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("API keys (list, create form, secret once, refusal), team, account and organizations pass axe, light and dark", async ({
    page,
    request,
    account,
  }) => {
    await page.goto("/sign-in");
    await signIn(page, account);
    await page.goto("/settings/api-keys");
    await expect(page.getByRole("heading", { name: "API keys are not available to you" })).toBeVisible();
    await expectAccessible(page, "API keys, refused by plan");

    await setPlan(request, account, "agency");
    const admin = await addMember(request, account, "admin", "Ada Admin");
    await createKey(request, admin, "Export job");
    await addMember(request, account, "member", "Max Member");
    await page.reload();
    await expect(keyRow(page, "Export job")).toBeVisible();
    await expectAccessible(page, "API keys");
    await page.getByRole("button", { name: "New API key" }).click();
    const dialog = page.getByRole("dialog", { name: "New API key" });
    await dialog.getByLabel("Expires after (days)").fill("0");
    await dialog.getByRole("button", { name: "Create API key" }).click();
    await expect(dialog.getByLabel("Expires after (days)")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "new API key form with an error");
    await dialog.getByLabel("Key name").fill("Reporting");
    await dialog.getByLabel("Expires after (days)").fill("");
    await dialog.getByRole("button", { name: "Create API key" }).click();
    await expect(page.getByRole("dialog", { name: "Reporting is ready" }).getByLabel("Secret key", { exact: true })).toHaveValue(
      /^inlet_sk_/,
    );
    await expectAccessible(page, "new API key's secret");
    await page.getByRole("button", { name: "Close" }).click();

    await page.goto("/settings/team");
    await page.getByLabel("Email address").fill("someone@example.com");
    await page.getByRole("button", { name: "Create invite link" }).click();
    await expect(page.getByLabel("Invite link", { exact: true })).toHaveValue(/#token=/);
    await expectAccessible(page, "team with an invite link");
    await memberRow(page, "Ada Admin").getByRole("button", { name: "Remove Ada Admin" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("Export job");
    await expectAccessible(page, "team, removal dialog");
    await page.keyboard.press("Escape");

    await page.goto("/settings/account");
    await expect(page.getByRole("button", { name: "Send a new verification link" })).toBeVisible();
    await expectAccessible(page, "account");

    await page.getByRole("button", { name: "Sign out" }).first().click();
    await signIn(page, await platformAdmin(request));
    await page.goto(`/admin/organizations?q=${encodeURIComponent(account.organizationName)}`);
    await expect(memberRow(page, account.organizationName)).toBeVisible();
    await expectAccessible(page, "organizations");
  });
});
