import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { type Account, apiAs, expect, signIn, submit, test } from "./support/fixtures";
import { memberOf } from "./support/site-settings";
import { siteWithSources } from "./support/sources";

test.describe.configure({ mode: "parallel" });

const section = (page: Page, name: string) => page.getByRole("region", { name });
const ADDRESS = "person@example.com";

/** Two sites, three sources (so three forms: the test stack's budget of 0 makes each request read one). */
async function personAcrossTwoSites(request: APIRequestContext, account: Account) {
  const first = await siteWithSources(request, account, ["Contact", "Quote"]);
  const second = await siteWithSources(request, account, ["Newsletter"]);
  const [contact, quote] = first.sources;
  const [newsletter] = second.sources;
  if (!contact || !quote || !newsletter) throw new Error("three sources were arranged");
  const held = [
    await submit(request, contact, { email: "Person@example.com", message: "first" }),
    await submit(request, quote, { name: "P", work_email: "PERSON@EXAMPLE.COM" }),
    await submit(request, newsletter, { email: "person@example.com " }),
  ];
  const others = [
    await submit(request, contact, { email: "keep@example.com", message: "ask person@example.com" }),
    await submit(request, newsletter, { email: "someone@example.com" }),
  ];
  return { held, others };
}

async function openPrivacy(page: Page) {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" }).click();
  await page.getByRole("navigation", { name: "Settings" }).getByRole("link", { name: "Privacy" }).click();
  await expect(page).toHaveURL(/\/settings\/privacy$/);
  await expect(page.getByRole("heading", { level: 1, name: "Privacy" })).toBeVisible();
}

async function exportData(page: Page, email: string) {
  const access = section(page, "Export a person's data");
  await access.getByLabel("Email address to look for").fill(email);
  await access.getByRole("button", { name: "Export data" }).click();
  return access;
}

test("an owner exports a person's data across two sites as a file, then erases it over several requests", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { held, others } = await personAcrossTwoSites(request, account);
  await openPrivacy(page);

  // The access request follows its cursor (one form per request here) and then offers the file.
  const access = await exportData(page, ADDRESS);
  await expect(access.getByRole("status")).toHaveText(
    "Done: 3 submissions of person@example.com found across the organization (3 requests).",
  );
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    access.getByRole("link", { name: /^Download inlet-access-request-/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^inlet-access-request-\d{4}-\d{2}-\d{2}\.json$/);
  const file = JSON.parse(await readFile((await download.path()) as string, "utf8"));
  expect(file).toMatchObject({ email: ADDRESS, count: 3, organization: { name: expect.any(String) } });
  expect(Date.parse(file.requestedAt)).not.toBeNaN();
  expect(file.submissions.map((s: { id: string }) => s.id).sort()).toEqual(held.map((s) => s.submissionId).sort());
  const quote = file.submissions.find((s: { id: string }) => s.id === held[1]?.submissionId);
  expect(quote).toMatchObject({
    siteName: "Marketing site",
    formName: "Quote",
    data: { name: "P", work_email: "PERSON@EXAMPLE.COM" },
  });

  // Every erasure request and its answer, in order; the second one is held until the person
  // has pressed Stop (the request itself still goes to the real API).
  const exchanges: { body: { email: string; cursor?: string }; answer: { cursor: string | null; complete: boolean } }[] = [];
  let release = () => {};
  const heldBack = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/api/v1/organization/erasures", async (route) => {
    if (exchanges.length === 1) await heldBack;
    const response = await route.fetch();
    const { data } = (await response.json()) as { data: { cursor: string | null; complete: boolean } };
    exchanges.push({ body: route.request().postDataJSON(), answer: data });
    await route.fulfill({ response });
  });

  const erasure = section(page, "Erase a person's data");
  const progress = erasure.getByRole("status");
  await expect(erasure.getByRole("button", { name: "Erase submissions" })).toBeDisabled();
  await erasure.getByLabel("Email address to erase").fill(ADDRESS);
  await erasure.getByRole("button", { name: "Erase submissions" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Erase every submission of ${ADDRESS}?` });
  await expect(dialog).toContainText("This cannot be undone.");
  await dialog.getByRole("button", { name: "Erase" }).click();
  await expect(progress).toHaveText(
    /^Erasing submissions of person@example\.com… \d submissions? deleted in 1 request so far\.$/,
  );
  await erasure.getByRole("button", { name: "Stop" }).click();
  await expect(progress).toContainText("Stopping after the current request…");
  release();
  await expect(progress).toHaveText(
    /^Stopped: \d submissions? deleted in 2 requests\. Submissions not reached yet are still stored\.$/,
  );
  await erasure.getByRole("button", { name: "Continue erasing" }).click();
  await expect(progress).toHaveText("Done: 3 submissions of person@example.com erased (3 requests).");
  expect(exchanges.map((e) => e.answer.complete)).toEqual([false, false, true]);
  expect(exchanges.map((e) => e.body)).toEqual([
    { email: ADDRESS },
    { email: ADDRESS, cursor: exchanges[0]?.answer.cursor },
    { email: ADDRESS, cursor: exchanges[1]?.answer.cursor },
  ]);
  await page.unroute("**/api/v1/organization/erasures");

  for (const s of held) {
    const response = await request.get(`/api/v1/submissions/${s.submissionId}`, {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(response.status()).toBe(404);
  }
  for (const s of others) await apiAs(request, account, "GET", `/api/v1/submissions/${s.submissionId}`);

  // Asked again, nothing is held any more.
  await access.getByRole("button", { name: "Export data" }).click();
  await expect(access.getByRole("status")).toHaveText(
    "Done: 0 submissions of person@example.com found across the organization (3 requests).",
  );
});

test("a member sees both actions disabled, with the reason", async ({ page, request, account }) => {
  const member = await memberOf(request, account);
  await signIn(page, member);
  await openPrivacy(page);
  await expect(
    page.getByText("Only the owner and admins answer requests about a person's data; your role is member."),
  ).toBeVisible();
  await expect(section(page, "Export a person's data").getByLabel("Email address to look for")).toBeDisabled();
  await expect(section(page, "Erase a person's data").getByLabel("Email address to erase")).toBeDisabled();
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses (test/e2e/a11y.spec.ts).
  test.use({ bypassCSP: true });

  test("the privacy page with an export's file and the erasure's confirmation, light and dark", async ({
    signedIn: page,
    request,
    account,
  }) => {
    const { sources } = await siteWithSources(request, account, ["Contact form"]);
    await submit(request, sources[0] as { url: string; secret: string }, { email: ADDRESS });
    await openPrivacy(page);
    const access = await exportData(page, ADDRESS);
    await expect(access.getByRole("status")).toContainText("Done: 1 submission");
    await expect(access.getByRole("link", { name: /^Download / })).toBeVisible();
    await expectAccessibleInBothThemes(page, "privacy");

    const erasure = section(page, "Erase a person's data");
    await erasure.getByLabel("Email address to erase").fill(ADDRESS);
    await erasure.getByRole("button", { name: "Erase submissions" }).click();
    await expect(page.getByRole("alertdialog")).toBeVisible();
    await expectAccessibleInBothThemes(page, "privacy: the erasure's confirmation");
  });
});
