import type { Page } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { apiAs, expect, signIn, test } from "./support/fixtures";
import { addMember, createKey, setPlan } from "./support/settings";

test.describe.configure({ mode: "parallel" });

const entryRows = (page: Page) => page.getByRole("table", { name: /Audit log entries/ }).getByRole("row");

test("an owner's audited actions show in Settings → Audit log; the action filter lives in the URL", async ({
  page,
  request,
  account,
}) => {
  await setPlan(request, account, "agency");
  const key = await createKey(request, account, "Nightly export");
  await apiAs(request, account, "DELETE", `/api/v1/api-keys/${key.id}`);
  const member = await addMember(request, account, "member", "Mia Member");

  await signIn(page, account);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page).toHaveURL(/\/settings\/audit-log$/);
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  // Newest first: the invite, the revocation, the creation, then the platform admin's plan change.
  await expect(entryRows(page)).toHaveCount(5);
  const rows = entryRows(page);
  await expect(rows.nth(1)).toContainText("Invited a member");
  await expect(rows.nth(1)).toContainText(member.email);
  await expect(rows.nth(2)).toContainText("Revoked an API key");
  await expect(rows.nth(3)).toContainText("Created an API key");
  await expect(rows.nth(3)).toContainText("Nightly export");
  await expect(rows.nth(3)).toContainText(`${account.name} (${account.email})`);
  await expect(rows.nth(3)).toContainText(/from (127\.0\.0\.1|::1)/);
  await expect(rows.nth(4)).toContainText("Changed the plan");
  await expect(rows.nth(4)).toContainText("platform admin");

  await page.getByLabel("Action", { exact: true }).selectOption({ label: "Created an API key" });
  await expect(page).toHaveURL(/action=api_key\.created/);
  await expect(entryRows(page)).toHaveCount(2);
  await page.reload();
  await expect(page.getByLabel("Action", { exact: true })).toHaveValue("api_key.created");
  await expect(entryRows(page)).toHaveCount(2);
  await expect(entryRows(page).nth(1)).toContainText("Nightly export");

  // A range before anything happened: nothing matches, said in words.
  await page.getByLabel("To", { exact: true }).fill("2001-01-01");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/to=2001-01-01/);
  await expect(page.getByText("No entries match these filters.")).toBeVisible();

  // A member sees no tab, and the address tells them why.
  const memberPage = await page.context().browser()?.newPage();
  if (!memberPage) throw new Error("no browser");
  await signIn(memberPage, member);
  await memberPage.goto("/settings/audit-log");
  await expect(memberPage.getByText("Only the owner and admins can read the audit log.")).toBeVisible();
  await expect(memberPage.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await memberPage.close();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("the audit log passes axe, light and dark", async ({ page, request, account }) => {
    await setPlan(request, account, "agency");
    await createKey(request, account, "Reporting");
    await signIn(page, account);
    await page.goto("/settings/audit-log");
    await expect(entryRows(page)).toHaveCount(3);
    await expectAccessible(page, "audit log");
    await page.goto("/settings/audit-log?action=site.deleted");
    await expect(page.getByText("No entries match these filters.")).toBeVisible();
    await expectAccessible(page, "audit log, filtered to nothing");
  });
});
