import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { apiAs, counted, expect, submit, test } from "./support/fixtures";
import { addField, changeForm, createForm, createSite, fieldRow, fieldRows, readForm, rowLabels } from "./support/forms";

/** Sent as a visitor's browser would, so the spam score stays low. */
const BROWSER = { referer: "http://localhost/quote", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0" };

/**
 * A site's forms (docs/dashboard.md, "Forms"): the builder, a form's settings and actions, permanent
 * deletion naming what goes, and edits that never overwrite someone else's (409 CONFLICT).
 */

test("create, build, publish, duplicate, archive, restore and delete a form for good", async ({
  signedIn: page,
  request,
  account,
}) => {
  const siteId = await createSite(request, account);
  await page.goto(`/sites/${siteId}/forms`);
  await expect(page.getByRole("heading", { level: 1, name: "Forms" })).toBeVisible();
  await expect(page.getByText("No forms yet.")).toBeVisible();

  // Create: a name, then the builder.
  await page.getByLabel("New form name").fill("Quote request");
  await page.getByRole("button", { name: "Create form" }).click();
  await expect(page).toHaveURL(/\/forms\/form_[0-9A-Za-z]{22}\/fields$/);
  const formId = new URL(page.url()).pathname.split("/")[2] ?? "";
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Quote request");
  await expect(page.getByText("Draft · Built here")).toBeVisible();
  await expect(page.getByText("Removing a field keeps the data already collected")).toBeVisible();

  // Add three fields (the key follows the label until it is edited), reorder, remove one.
  await addField(page, { label: "Full name" });
  await expect(fieldRows(page).first().getByLabel("Key", { exact: true })).toHaveValue("full_name");
  await addField(page, { label: "Email", type: "Email", required: true });
  await addField(page, { label: "Notes", key: "notes", type: "Long text" });
  await expect(page.getByRole("button", { name: "Move up: Full name" })).toBeDisabled();
  await page.getByRole("button", { name: "Move up: Email" }).click();
  // Focus follows the moved field, so a keyboard user can keep moving it.
  await expect(page.getByRole("button", { name: "Move down: Email" })).toBeFocused();
  expect(await rowLabels(page)).toEqual(["Email", "Full name", "Notes"]);
  await page.getByRole("button", { name: "Move down: Full name" }).click();
  expect(await rowLabels(page)).toEqual(["Email", "Notes", "Full name"]);
  await fieldRow(page, "Notes").getByRole("button", { name: "Remove: Notes" }).click();
  expect(await rowLabels(page)).toEqual(["Email", "Full name"]);
  await page.getByRole("button", { name: "Save fields" }).click();
  await expect(page.getByText("Fields saved", { exact: true })).toBeVisible();
  expect((await readForm(request, account, formId)).fields).toEqual([
    { key: "email", label: "Email", type: "email", required: true, order: 1 },
    { key: "full_name", label: "Full name", type: "text", required: false, order: 2 },
  ]);

  // After a reload, relabel and retype a saved field (its key, where data is stored, stays).
  await page.reload();
  await expect(fieldRows(page)).toHaveCount(2);
  expect(await rowLabels(page)).toEqual(["Email", "Full name"]);
  await fieldRow(page, "Full name").getByLabel("Label", { exact: true }).fill("Your name");
  await fieldRow(page, "Your name").getByLabel("Type", { exact: true }).selectOption({ label: "Name" });
  await page.getByRole("button", { name: "Save fields" }).click();
  await expect(page.getByText("Fields saved", { exact: true })).toBeVisible();
  expect((await readForm(request, account, formId)).fields[1]).toEqual(
    expect.objectContaining({ key: "full_name", label: "Your name", type: "name" }),
  );

  // Publish from the form's settings (the sub-navigation leads there).
  await page.getByRole("navigation", { name: "Form sections" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Status and actions" })).toBeVisible();
  await page.getByRole("button", { name: "Publish: Quote request" }).click();
  await expect(page.getByText("Published · Built here")).toBeVisible();
  expect((await readForm(request, account, formId)).status).toBe("published");

  await page.getByRole("button", { name: "Duplicate: Quote request" }).click();
  await expect(page.getByText("Copied as Quote request (copy)", { exact: true })).toBeVisible();

  // A source sends to it: its submissions and its name are what a permanent deletion names.
  const source = await apiAs<{ id: string; webhookUrl: string; secretKey: string }>(
    request,
    account,
    "POST",
    `/api/v1/sites/${siteId}/webhooks`,
    { name: "Landing page", formId },
  );
  for (const email of ["ada@example.com", "grace@example.com"]) {
    await submit(request, { url: source.webhookUrl, secret: source.secretKey }, { email, full_name: "Someone" }, BROWSER);
  }
  await counted(request, account, siteId, source.id, 2);

  // Archive, restore, archive again.
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Archive Quote request?" }).getByRole("button", { name: "Archive" }).click();
  await expect(page.getByText("Published · Built here · Archived")).toBeVisible();
  await page.getByRole("button", { name: "Restore: Quote request" }).click();
  await expect(page.getByText("Published · Built here", { exact: true })).toBeVisible();
  expect((await readForm(request, account, formId)).archivedAt).toBeNull();
  await page.getByRole("button", { name: "Archive", exact: true }).click();
  await page.getByRole("alertdialog", { name: "Archive Quote request?" }).getByRole("button", { name: "Archive" }).click();
  await expect(page.getByText("Published · Built here · Archived")).toBeVisible();

  // The list: the copy is active, the original archived; delete the original for good.
  await page.getByRole("link", { name: "All forms of the site" }).click();
  const active = page.getByRole("list", { name: "Active forms" });
  await expect(active.getByRole("heading", { name: "Quote request (copy)" })).toBeVisible();
  await expect(active.getByText("Built here · Draft · 2 fields · 0 submissions")).toBeVisible();
  await expect(active.getByRole("heading", { name: "Quote request", exact: true })).toHaveCount(0);
  await page.getByRole("tab", { name: "Archived" }).click();
  await expect(page).toHaveURL(/archived=true/);
  const archived = page.getByRole("list", { name: "Archived forms" });
  // Spam or not (the score depends on what else this machine sends), both count in what goes.
  await expect(archived.getByText(/^Built here · Published · Archived · 2 fields · /)).toBeVisible();
  await archived.getByRole("button", { name: "Delete permanently" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Permanently delete Quote request?" });
  await expect(confirm).toContainText("its 2 submissions");
  await expect(confirm.getByRole("listitem")).toHaveText(["Landing page"]);
  await confirm.getByRole("button", { name: "Delete for good" }).click();
  await expect(page.getByText("Quote request permanently deleted", { exact: true })).toBeVisible();
  await expect(page.getByText("No archived forms.")).toBeVisible();
  const gone = await request.get(`/api/v1/forms/${formId}`, { headers: { authorization: `Bearer ${account.token}` } });
  expect(gone.status()).toBe(404);
  const unlinked = await apiAs<{ formId: string | null }>(
    request,
    account,
    "GET",
    `/api/v1/sites/${siteId}/webhooks/${source.id}`,
  );
  expect(unlinked.formId).toBeNull();
});

test("the form's sub-navigation leads to every form page and keeps the inbox where it was", async ({
  signedIn: page,
  request,
  account,
}) => {
  const siteId = await createSite(request, account);
  const form = await createForm(request, account, siteId, { name: "Newsletter" });
  await page.goto(`/forms/${form.id}`);
  const nav = page.getByRole("navigation", { name: "Form sections" });
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Newsletter");
  await expect(nav.getByRole("link", { name: "Inbox" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Spam" }).click();
  await expect(page).toHaveURL(new RegExp(`/forms/${form.id}/spam$`));
  await expect(page.getByRole("heading", { name: "Spam of Newsletter" })).toBeVisible();
  await nav.getByRole("link", { name: "Fields" }).click();
  await expect(page.getByRole("heading", { name: "Fields", exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Fields" })).toHaveAttribute("aria-current", "page");
  await nav.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings", exact: true })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Webhooks" })).toHaveAttribute("href", `/forms/${form.id}/webhooks`);
  await nav.getByRole("link", { name: "Inbox" }).click();
  await expect(page.getByRole("heading", { name: "Inbox", exact: true })).toBeVisible();
  await expect(page.getByText("No submissions yet.")).toBeVisible();
});

test("a form changed by someone else meanwhile is never overwritten: the page says so and reloads", async ({
  signedIn: page,
  request,
  account,
}) => {
  const siteId = await createSite(request, account);
  const form = await createForm(request, account, siteId, {
    name: "Contact",
    fields: [
      { key: "email", label: "Email", type: "email", required: true },
      { key: "message", label: "Message", type: "textarea" },
    ],
  });

  // The builder: edit, then someone else renames the form and relabels a field before Save.
  await page.goto(`/forms/${form.id}/fields`);
  await fieldRow(page, "Message").getByLabel("Label", { exact: true }).fill("Your question");
  await changeForm(request, account, form.id, {
    name: "Contact us",
    fields: [
      { key: "email", label: "Work email", type: "email", required: true },
      { key: "message", label: "Message", type: "textarea" },
    ],
  });
  await page.getByRole("button", { name: "Save fields" }).click();
  const notice = page.getByRole("alert").filter({ hasText: "Someone else changed this form" });
  await expect(notice).toBeVisible();
  await expect(page.getByRole("button", { name: "Save fields" })).toBeDisabled();
  expect((await readForm(request, account, form.id)).fields.map((f) => f.label)).toEqual(["Work email", "Message"]);
  await notice.getByRole("button", { name: "Reload the form" }).click();
  await expect(notice).toHaveCount(0);
  expect(await rowLabels(page)).toEqual(["Work email", "Message"]);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact us");
  await fieldRow(page, "Message").getByLabel("Label", { exact: true }).fill("Your question");
  await page.getByRole("button", { name: "Save fields" }).click();
  await expect(page.getByText("Fields saved", { exact: true })).toBeVisible();
  expect((await readForm(request, account, form.id)).fields.map((f) => f.label)).toEqual(["Work email", "Your question"]);

  // The settings: the same guard.
  await page.getByRole("navigation", { name: "Form sections" }).getByRole("link", { name: "Settings" }).click();
  await page.getByLabel("Notification recipients").fill("sales@example.com");
  await changeForm(request, account, form.id, { settings: { notifyEmails: ["ops@example.com"] } });
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Someone else changed this form" })).toBeVisible();
  expect((await readForm(request, account, form.id)).settings.notifyEmails).toEqual(["ops@example.com"]);
  await page.getByRole("button", { name: "Reload the form" }).click();
  await expect(page.getByLabel("Notification recipients")).toHaveValue("ops@example.com");
});

test("the builder refuses a repeated or reserved key beside the field, and settings refuse a redirect off the site", async ({
  signedIn: page,
  request,
  account,
}) => {
  const siteId = await createSite(request, account, "example.com");
  const form = await createForm(request, account, siteId, {
    name: "Signup",
    fields: [{ key: "email", label: "Email", type: "email" }],
  });
  await page.goto(`/forms/${form.id}/fields`);
  await addField(page, { label: "Second email", key: "email" });
  await page.getByRole("button", { name: "Save fields" }).click();
  const key = fieldRow(page, "Second email").getByLabel("Key", { exact: true });
  await expect(key).toHaveAttribute("aria-invalid", "true");
  await expect(key).toHaveAccessibleDescription(/Another field already has this key/);
  await key.fill("_secret");
  await expect(key).toHaveAccessibleDescription(/cannot start with _/);
  await key.fill("constructor");
  await expect(key).toHaveAccessibleDescription(/reserved/);
  // Nothing was sent: the schema is as it was.
  expect((await readForm(request, account, form.id)).fields.map((f) => f.key)).toEqual(["email"]);
  await key.fill("backup_email");
  await page.getByRole("button", { name: "Save fields" }).click();
  await expect(page.getByText("Fields saved", { exact: true })).toBeVisible();

  await page.goto(`/forms/${form.id}/settings`);
  const redirect = page.getByLabel("Redirect after a submission");
  await expect(redirect).toHaveAccessibleDescription(/must be on example\.com/);
  await redirect.fill("https://example.com.evil.net/thanks");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(redirect).toHaveAttribute("aria-invalid", "true");
  await expect(redirect).toHaveAccessibleDescription(/The redirect URL must point to example\.com or one of its subdomains/);
  expect((await readForm(request, account, form.id)).settings.redirectUrl).toBeNull();
  await redirect.fill("https://www.example.com/thanks");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText("Settings saved", { exact: true })).toBeVisible();
  expect((await readForm(request, account, form.id)).settings.redirectUrl).toBe("https://www.example.com/thanks");
});

test.describe("accessibility", () => {
  // axe is injected as a script, which the dashboard's CSP refuses.
  test.use({ bypassCSP: true });

  test("forms list, builder and settings pass axe in light and dark", async ({ signedIn: page, request, account }) => {
    const siteId = await createSite(request, account, "example.com");
    const form = await createForm(request, account, siteId, {
      name: "Contact",
      fields: [
        { key: "name", label: "Name", type: "name", required: true },
        { key: "email", label: "Email", type: "email", required: true },
      ],
      settings: { notifyEmails: ["sales@example.com"], redirectUrl: "https://www.example.com/thanks" },
    });
    await createForm(request, account, siteId, { name: "Archived one" }).then((f) =>
      apiAs(request, account, "DELETE", `/api/v1/forms/${f.id}`),
    );

    await page.goto(`/sites/${siteId}/forms`);
    await expect(page.getByRole("heading", { name: "Contact" })).toBeVisible();
    await expectAccessible(page, "forms list");
    await page.getByRole("tab", { name: "Archived" }).click();
    await page.getByRole("button", { name: "Delete permanently" }).click();
    await expect(page.getByRole("alertdialog")).toContainText("its 0 submissions");
    await expectAccessible(page, "permanent deletion confirmation");
    await page.keyboard.press("Escape");

    await page.goto(`/forms/${form.id}/fields`);
    await expect(fieldRows(page)).toHaveCount(2);
    await addField(page, { label: "Dup", key: "email" });
    await page.getByRole("button", { name: "Save fields" }).click();
    await expect(fieldRow(page, "Dup").getByLabel("Key", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page, "builder with a field error");

    await page.goto(`/forms/${form.id}/settings`);
    await expect(page.getByLabel("Redirect after a submission")).toHaveValue("https://www.example.com/thanks");
    await changeForm(request, account, form.id, { name: "Contact (renamed)" });
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByRole("button", { name: "Reload the form" })).toBeVisible();
    await expectAccessible(page, "settings with a conflict");
  });
});
