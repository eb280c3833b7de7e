import { randomUUID } from "node:crypto";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { confirmingForm, messageIdTo, sesEvent } from "./support/emails";
import { apiAs, expect, test } from "./support/fixtures";
import { send } from "./support/inbox";

/**
 * A form's confirmation email, a submission's emails and their fates, a form's suppressed
 * addresses (docs/email.md), through the real local stack: emails go to its SES emulator, and
 * SES's events about them are put on its EventBridge stand-in as SES would send them.
 */

test.use({ bypassCSP: true });

test("the confirmation email's settings: refused without the site's domain, saved with it", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: "No domain yet" });
  const { form } = await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${site.id}/forms`, {
    name: "Contact",
  });
  await page.goto(`/forms/${form.id}/settings`);
  const section = page.getByRole("form", { name: "Confirmation email" });
  await expect(section.getByText("The site has no domain yet")).toBeVisible();
  const enabled = section.getByLabel("Send a confirmation email to the submitter");
  await expect(enabled).not.toBeChecked();
  await enabled.check();
  await section.getByRole("button", { name: "Save confirmation email" }).click();
  await expect(section.getByText("A confirmation email needs the site's domain")).toBeVisible();

  await apiAs(request, account, "PUT", `/api/v1/sites/${site.id}`, { domain: "example.com" });
  await page.reload();
  await expect(section.getByText("The site has no domain yet")).toBeHidden();
  await enabled.check();
  await section.getByLabel("Subject").fill("We got it, {name} ({reference})");
  await section.getByLabel("Message").fill("Hi {name},\n\nthanks for writing to {form}.");
  await section.getByLabel("Sender name (optional)").fill("Acme Support");
  await section.getByLabel("Reply-to address (optional)").fill("help@example.com");
  await section.getByRole("button", { name: "Save confirmation email" }).click();
  await expect(page.getByText("Confirmation email saved", { exact: true })).toBeVisible();

  await page.reload();
  await expect(enabled).toBeChecked();
  await expect(section.getByLabel("Subject")).toHaveValue("We got it, {name} ({reference})");
  await expect(section.getByLabel("Reply-to address (optional)")).toHaveValue("help@example.com");
  // The other settings were not touched by it, and can still be saved after it.
  await page.getByLabel("Form name").fill("Contact us");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved", { exact: true })).toBeVisible();
  await expectAccessibleInBothThemes(page, "form settings with the confirmation email");
});

test("a submission's emails and their fates; the form's suppressed addresses, one lifted", async ({
  signedIn: page,
  request,
  account,
}) => {
  const team = `team-${randomUUID()}@example.com`;
  const visitor = `visitor-${randomUUID()}@example.net`;
  const { formId, source } = await confirmingForm(request, account, team);
  const sent = await send(request, source, { name: "Ada Lovelace", email: visitor, message: "Hello" });
  const [notification, confirmation] = await Promise.all([messageIdTo(team), messageIdTo(visitor)]);

  await page.goto(`/submissions/${sent.submissionId}`);
  const emails = page.getByRole("region", { name: "Emails" });
  await expect(emails.getByText("Sent to the submitter.")).toBeVisible();
  const sentList = emails.getByRole("list", { name: "Emails sent" });
  const notified = sentList.getByRole("listitem", { name: "Notification" });
  const confirmed = sentList.getByRole("listitem", { name: "Confirmation to the submitter" });
  await expect(notified.getByText("Sent", { exact: true })).toBeVisible();
  await expect(confirmed.getByText("the submitter", { exact: true })).toBeVisible();

  // SES's events: the notification delivered, the confirmation bounced.
  const tags = (kind: string) => ({ "inlet-kind": kind, "inlet-form": formId, "inlet-submission": sent.submissionId });
  await sesEvent("Delivery", { messageId: notification, destination: [team], tags: tags("notification") });
  await sesEvent("Bounce", { messageId: confirmation, destination: [visitor], tags: tags("confirmation") });
  await page.reload();
  await expect(notified.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(notified.getByText(team)).toBeVisible();
  await expect(confirmed.getByText("Bounced", { exact: true })).toBeVisible();
  await expect(confirmed.getByText(/Permanent\/General/)).toBeVisible();
  await expect(page.getByText(visitor)).toHaveCount(1); // in the fields only, never in the emails
  await expectAccessibleInBothThemes(page, "a submission's emails");

  // The team's address complains: suppressed on the form beside the bounced submitter.
  await sesEvent("Complaint", { messageId: notification, destination: [team], tags: tags("notification") });
  await page.goto(`/forms/${formId}/settings`);
  const suppressed = page.getByRole("list", { name: "Suppressed addresses" });
  await expect(suppressed.getByRole("listitem")).toHaveCount(2);
  await expect(suppressed.getByRole("listitem", { name: team })).toContainText("Notification recipient · Marked as spam");
  await expect(suppressed.getByRole("listitem", { name: visitor })).toContainText("Submitter · Bounced");
  await expectAccessibleInBothThemes(page, "form settings with suppressed addresses");

  await suppressed.getByRole("listitem", { name: team }).getByRole("button", { name: "Lift" }).click();
  const dialog = page.getByRole("alertdialog", { name: `Send to ${team} again?` });
  await dialog.getByRole("button", { name: "Lift the suppression" }).click();
  await expect(page.getByText(`${team} is no longer suppressed`, { exact: true })).toBeVisible();
  await expect(suppressed.getByRole("listitem")).toHaveCount(1);
  await expect(suppressed.getByRole("listitem", { name: visitor })).toBeVisible();
  const { form } = await apiAs<{ form: { suppressedRecipients: unknown[] } }>(request, account, "GET", `/api/v1/forms/${formId}`);
  expect(form.suppressedRecipients).toEqual([]);
});
