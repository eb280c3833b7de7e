import type { APIRequestContext, Page } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { type Account, apiAs, expect, signIn, test } from "./support/fixtures";
import { verifyAddress } from "./support/settings";

/**
 * Settings → Account → Email notifications (docs/notifications.md, "Digests"): the person's time
 * zone (proposed from the browser's), the hour and weekday digests go at, and per form or for the
 * whole organization an email per submission, a daily or weekly digest, or nothing.
 */

test.describe.configure({ mode: "parallel" });
// The browser's zone is what the page proposes before the person chose one.
test.use({ timezoneId: "Asia/Tokyo" });

async function siteWithForms(request: APIRequestContext, account: Account) {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "Acme" });
  const form = async (name: string) =>
    (await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${site.id}/forms`, { name })).form.id;
  const contact = await form("Contact");
  const quote = await form("Quote");
  // The person is on Quote's notification list.
  await apiAs(request, account, "PUT", `/api/v1/forms/${quote}`, { settings: { notifyEmails: [account.email] } });
  return { contact, quote };
}

const formRow = (page: Page, name: string) =>
  page
    .getByRole("table", { name: "Your choice for each form" })
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: new RegExp(`^${name}`) }) });

test("choosing digests for every form and a weekly one for a form, in the person's time zone; saved and shown again", async ({
  page,
  request,
  account,
}) => {
  const { quote } = await siteWithForms(request, account);
  await verifyAddress(request, account);
  await signIn(page, account);
  await page.goto("/settings/account#notifications");
  const section = page.getByRole("region", { name: "Email notifications" });
  await expect(section).toBeInViewport();
  await expect(section.getByLabel("Time zone")).toHaveValue("Asia/Tokyo");
  await expect(section.getByText(/not verified/)).toHaveCount(0);
  // Before any choice, each form's list decides.
  await expect(formRow(page, "Contact")).toContainText("Nothing (you are not on its notification list)");
  await expect(formRow(page, "Quote")).toContainText("An email per submission (you are on its notification list)");

  await section.getByLabel("For every form").selectOption({ label: "A daily digest" });
  await expect(formRow(page, "Contact")).toContainText("A daily digest");
  await formRow(page, "Quote")
    .getByRole("combobox", { name: "Your choice for Quote (Acme)" })
    .selectOption({ label: "A weekly digest" });
  await section.getByLabel("Digests arrive at").selectOption({ label: "07:00" });
  await section.getByLabel("Weekly digests on").selectOption({ label: "Friday" });
  await section.getByRole("button", { name: "Save notifications" }).click();
  await expect(page.getByText("Your notifications are saved", { exact: true })).toBeVisible();
  await expect(section.getByText(/^Next daily digest: .+07:00/)).toBeVisible();
  await expect(section.getByText(/^Next weekly digest: Fri.+07:00/)).toBeVisible();

  const saved = await apiAs<Record<string, unknown>>(request, account, "GET", "/api/v1/auth/me/notifications");
  expect(saved).toMatchObject({ timeZone: "Asia/Tokyo", digestHour: 7, digestWeekday: 5, organization: "daily" });
  expect((saved.forms as { formId: string; choice: string | null }[]).find((f) => f.formId === quote)?.choice).toBe("weekly");

  await page.reload();
  await expect(section.getByLabel("For every form")).toHaveValue("daily");
  await expect(formRow(page, "Quote").getByRole("combobox")).toHaveValue("weekly");
  await expect(formRow(page, "Contact").getByRole("combobox")).toHaveValue("");

  // Back to the forms' lists, and Quote back to the choice for every form.
  await section.getByLabel("For every form").selectOption({ label: "As each form's notification list says" });
  await formRow(page, "Quote").getByRole("combobox").selectOption({ label: "Same as every form" });
  await section.getByRole("button", { name: "Save notifications" }).click();
  await expect(section.getByText(/^Next (daily|weekly) digest/)).toHaveCount(0);
  await expect(formRow(page, "Quote")).toContainText("An email per submission (you are on its notification list)");
});

test("a digest's link (the account page's section) works from signed out: sign in, then the section", async ({
  page,
  account,
}) => {
  await page.goto("/settings/account#notifications");
  await expect(page).toHaveURL(/\/sign-in\?redirect=%2Fsettings%2Faccount%23notifications$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/settings\/account#notifications$/);
  await expect(page.getByRole("region", { name: "Email notifications" })).toBeInViewport();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("the notifications section passes axe, light and dark, unverified and with forms", async ({ page, request, account }) => {
    await siteWithForms(request, account);
    await signIn(page, account);
    await page.goto("/settings/account#notifications");
    const section = page.getByRole("region", { name: "Email notifications" });
    await expect(section.getByText(/nothing is emailed to you until it is/)).toBeVisible();
    await expect(formRow(page, "Quote")).toBeVisible();
    await section.getByLabel("For every form").selectOption({ label: "A weekly digest" });
    await section.getByRole("button", { name: "Save notifications" }).click();
    await expect(section.getByText(/^Next weekly digest/)).toBeVisible();
    await expectAccessible(page, "account, email notifications");
  });
});
