import { randomUUID } from "node:crypto";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { confirmingForm } from "./support/emails";
import { apiAs, expect, test } from "./support/fixtures";
import { getSubmission, graded, send } from "./support/inbox";

/**
 * Forward-only forms in the dashboard (docs/privacy.md, "Forward-only forms"): the switch on the
 * form's settings, and a submission whose values were deleted once it was sent on, in the inbox
 * (a badge) and on its page (why its values are gone, where it went), through the real local
 * stack's pipeline.
 */

test.use({ bypassCSP: true });

test("the forward-only switch on a form's settings: off by default, turned on, kept on reload", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "Pipe site" });
  const { form } = await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${site.id}/forms`, {
    name: "Pipe",
  });
  await page.goto(`/forms/${form.id}/settings`);
  const section = page.getByRole("form", { name: "Forward only" });
  const toggle = section.getByLabel("Keep nothing: delete each submission's values once it has been sent on");
  await expect(toggle).not.toBeChecked();
  await expect(section.getByText("at most 72 hours after the submission arrived")).toBeVisible();
  await toggle.check();
  await section.getByRole("button", { name: "Save forward only" }).click();
  await expect(page.getByText("Forward-only turned on", { exact: true })).toBeVisible();
  await page.reload();
  await expect(toggle).toBeChecked();
  // The other settings still save beside it, and leave it on.
  await page.getByLabel("Form name").fill("Pipe to the CRM");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved", { exact: true })).toBeVisible();
  await page.reload();
  await expect(toggle).toBeChecked();
  await expectAccessibleInBothThemes(page, "form settings with forward only");
});

test("a forward-only submission: delivered without values in the inbox, explained on its page", async ({
  signedIn: page,
  request,
  account,
}) => {
  const team = `team-${randomUUID()}@example.com`;
  const { formId, source } = await confirmingForm(request, account, team);
  // One kept (sent before the switch), one forward-only.
  const kept = await send(request, source, { name: "Ada Lovelace", email: `ada-${randomUUID()}@example.net`, message: "Keep" });
  await graded(request, account, kept.submissionId);
  await apiAs(request, account, "PUT", `/api/v1/forms/${formId}`, { settings: { forwardOnly: true } });
  const piped = await send(request, source, {
    name: "Grace Hopper",
    email: `grace-${randomUUID()}@example.net`,
    message: "Pass it on",
  });
  await expect
    .poll(async () => (await getSubmission(request, account, piped.submissionId)).data, { timeout: 20_000 })
    .toEqual({});

  await page.goto(`/forms/${formId}`);
  const rows = page.getByRole("row");
  const pipedRow = rows.filter({ hasText: piped.referenceId });
  await expect(pipedRow.getByText("Delivered · values not kept")).toBeVisible();
  await expect(rows.filter({ hasText: "Ada Lovelace" }).getByText("Delivered · values not kept")).toHaveCount(0);
  await expectAccessibleInBothThemes(page, "inbox with a forward-only submission");

  await pipedRow.getByRole("link", { name: piped.referenceId }).click();
  await expect(page.getByRole("heading", { name: `Submission ${piped.referenceId}` })).toBeVisible();
  const notice = page.getByRole("region", { name: /Fields/ });
  await expect(notice.getByText("This form is forward-only")).toBeVisible();
  await expect(page.getByText("Grace Hopper")).toHaveCount(0);
  // Where it went is still listed: the notification and the confirmation.
  const emails = page.getByRole("region", { name: "Emails" });
  await expect(emails.getByRole("listitem", { name: "Notification" })).toBeVisible();
  await expect(emails.getByRole("listitem", { name: "Confirmation to the submitter" })).toBeVisible();
  await expectAccessibleInBothThemes(page, "a forward-only submission's page");
});
