import type { APIRequestContext } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { type Account, apiAs, createSource, expect, submit, test } from "./support/fixtures";

/**
 * Retention in the dashboard (docs/privacy.md, "Retention"): a site's defaults for new forms, a
 * form's retention with the background job that applies a change, and on each submission the day
 * it will be deleted; each page checked by axe in the light and the dark theme.
 */

test.describe.configure({ mode: "parallel" });

interface FormAnswer {
  form: {
    id: string;
    retention: { inboxDays: number | null; spamDays: number | null };
    retentionJob: { status: string } | null;
  };
}

/** Sent as from a browser on the site, so the spam score keeps it in the inbox. */
const BROWSER = { referer: "http://localhost/contact", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0" };

/** A site with a source and its form (made by a first submission, in the inbox); answers the ids and that submission. */
async function formWithSubmission(request: APIRequestContext, account: Account) {
  const source = await createSource(request, account);
  const sent = await submit(request, source, { email: "ada@example.com", message: "Hello" }, BROWSER);
  const { submission } = await apiAs<{ submission: { formId: string } }>(
    request,
    account,
    "GET",
    `/api/v1/submissions/${sent.submissionId}`,
  );
  return { siteId: source.siteId, formId: submission.formId, submissionId: sent.submissionId };
}

const readForm = (request: APIRequestContext, account: Account, formId: string) =>
  apiAs<FormAnswer>(request, account, "GET", `/api/v1/forms/${formId}?counts=false`);

test("a form's retention: the defaults shown, a bad number refused beside its field, a change saved and applied to its submissions", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId, submissionId } = await formWithSubmission(request, account);
  await page.goto(`/forms/${formId}/settings`);
  const retention = page.getByRole("form", { name: "Retention" });
  const inbox = retention.getByRole("group", { name: "Inbox submissions" });
  const spam = retention.getByRole("group", { name: "Spam" });
  await expect(inbox.getByLabel("Keep until deleted")).toBeChecked();
  await expect(spam.getByLabel("Delete after")).toBeChecked();
  await expect(spam.getByLabel("Spam: days")).toHaveValue("30");
  await expectAccessibleInBothThemes(page, "form settings with retention");

  // Out of bounds: said beside the field, nothing saved.
  await inbox.getByLabel("Delete after").check();
  await inbox.getByLabel("Inbox submissions: days").fill("0");
  await retention.getByRole("button", { name: "Save retention" }).click();
  await expect(inbox.getByLabel("Inbox submissions: days")).toHaveAttribute("aria-invalid", "true");
  await expect(inbox.getByText("A whole number of days from 1 to 3650.")).toBeVisible();
  expect((await readForm(request, account, formId)).form.retention).toEqual({ inboxDays: null, spamDays: 30 });

  await inbox.getByLabel("Inbox submissions: days").fill("400");
  await spam.getByLabel("Keep until deleted").check();
  await retention.getByRole("button", { name: "Save retention" }).click();
  await expect(page.getByText("Retention saved", { exact: true })).toBeVisible();
  await expect
    .poll(async () => (await readForm(request, account, formId)).form.retention)
    .toEqual({
      inboxDays: 400,
      spamDays: null,
    });
  // The job re-dates the submission it already had; the page says when it was applied.
  await expect(retention.getByText(/The last change was applied to the existing submissions on/)).toBeVisible({
    timeout: 20_000,
  });
  await expect(retention.getByText(/1 of 1 re-dated/)).toBeVisible();
  await expectAccessibleInBothThemes(page, "form settings after a retention change");

  // The submission says when it will be deleted: 400 days after it arrived.
  await page.goto(`/submissions/${submissionId}`);
  await expect(page.getByText(/^Deleted on .+, as the form's retention for its inbox says\.$/)).toBeVisible();
  await expectAccessibleInBothThemes(page, "submission with its deletion date");
});

test("a submission kept until deleted says so", async ({ signedIn: page, request, account }) => {
  const { submissionId } = await formWithSubmission(request, account);
  await page.goto(`/submissions/${submissionId}`);
  await expect(page.getByText("Kept until deleted.")).toBeVisible();
});

test("a site's retention defaults apply to the forms it creates next", async ({ signedIn: page, request, account }) => {
  const source = await createSource(request, account);
  await page.goto(`/sites/${source.siteId}/settings`);
  const section = page.getByRole("region", { name: "Retention of new forms" });
  await expect(section.getByRole("group", { name: "Inbox submissions" }).getByLabel("Keep until deleted")).toBeChecked();
  await section.getByRole("group", { name: "Inbox submissions" }).getByLabel("Delete after").check();
  await section.getByLabel("Inbox submissions: days").fill("180");
  await section.getByLabel("Spam: days").fill("7");
  await section.getByRole("button", { name: "Save retention defaults" }).click();
  await expect(page.getByText("Retention defaults saved", { exact: true })).toBeVisible();
  await expectAccessibleInBothThemes(page, "site settings with retention defaults");

  const { form } = await apiAs<FormAnswer>(request, account, "POST", `/api/v1/sites/${source.siteId}/forms`, { name: "New" });
  expect(form.retention).toEqual({ inboxDays: 180, spamDays: 7 });
});
