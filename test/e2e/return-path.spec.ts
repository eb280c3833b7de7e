import { expect, test } from "./support/fixtures";

/**
 * The sign-in page's `?redirect=` in the real dashboard: a link that sends a person to sign in
 * with a hostile return value (OWASP's open-redirect tricks; test/standalone/unit/return-path.test.ts has
 * them all) lands on the dashboard's home once signed in, never on another site.
 */

const HOSTILE = ["/\t/evil.example", "/\\evil.example", "//evil.example", "https://evil.example/", "/\r\n/evil.example"];

for (const value of HOSTILE) {
  test(`signing in with redirect=${JSON.stringify(value)} stays on the dashboard`, async ({ page, account, baseURL }) => {
    await page.goto(`/sign-in?redirect=${encodeURIComponent(value)}`);
    await page.getByLabel("Email").fill(account.email);
    await page.getByLabel("Password").fill(account.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/`);
  });
}

test("a return path of the dashboard is still followed", async ({ page, account, baseURL }) => {
  await page.goto(`/sign-in?redirect=${encodeURIComponent("/settings/account")}`);
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password").fill(account.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${baseURL}/settings/account`);
});
