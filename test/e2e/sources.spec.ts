import { counted, expect, submit, test } from "./support/fixtures";
import { createSourceInPage, openSiteWithOneSource, send, shown, siteWithSources, sourceRow } from "./support/sources";

const ADS_LEAD = (key: string) => ({
  lead_id: `lead-${Date.now()}`,
  api_version: "1.0",
  form_id: 40000000000,
  campaign_id: 12345678901,
  google_key: key,
  is_test: true,
  user_column_data: [
    { column_name: "Full Name", string_value: "Grace Hopper", column_id: "FULL_NAME" },
    { column_name: "User Email", string_value: "grace@example.com", column_id: "EMAIL" },
  ],
});

test("active and archived lists with their counts, submissions and last arrival", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, sources } = await siteWithSources(request, account, ["Contact form", "Old landing page", "Quote form"]);
  const [contact, old] = sources as [(typeof sources)[0], (typeof sources)[0]];
  await submit(request, contact, { name: "Ada", email: "ada@example.com" });
  await submit(request, contact, { name: "Alan", email: "alan@example.com" });
  await counted(request, account, siteId, contact.id, 2);
  await request.delete(`/api/v1/sites/${siteId}/webhooks/${old.id}`, { headers: { authorization: `Bearer ${account.token}` } });

  await page.goto(`/sites/${siteId}/sources`);
  await expect(page.getByRole("tab", { name: "Active (2)" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tab", { name: "Archived (1)" })).toBeVisible();
  const row = sourceRow(page, "Contact form");
  await expect(row).toContainText("2 submissions");
  await expect(row).toContainText(/last received (now|\d+ seconds? ago)/);
  const quiet = sourceRow(page, "Quote form");
  await expect(quiet).toContainText("0 submissions");
  await expect(quiet).toContainText("nothing received yet");
  await expect(sourceRow(page, "Old landing page")).toHaveCount(0);

  await page.getByRole("tab", { name: "Archived (1)" }).click();
  await expect(page).toHaveURL(/\?archived=true$/);
  await expect(sourceRow(page, "Old landing page")).toContainText("Archived");
  await expect(sourceRow(page, "Contact form")).toHaveCount(0);
  // The archived view is a link: opened afresh, it shows the same list.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Archived (1)" })).toHaveAttribute("aria-selected", "true");
  await expect(sourceRow(page, "Old landing page")).toBeVisible();
});

test("a source of each kind: its URL, its secret once, and snippets that work as shown", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId } = await siteWithSources(request, account, [], "shop.example");
  await page.goto(`/sites/${siteId}/sources`);
  await expect(page.getByText("No sources yet.")).toBeVisible();

  // A website form.
  let dialog = await createSourceInPage(page, "Contact form");
  const url = await shown(dialog, "Intake URL");
  const secret = await shown(dialog, "Secret");
  const tabs = dialog.getByRole("tab");
  await expect(tabs).toHaveText(["HTML form", "fetch()", "curl", "Google Ads lead form", "Zapier / Make"]);
  const html = await shown(dialog, "HTML form");
  expect(html).toContain(`<form action="${url}?key=${secret}" method="POST">`);
  expect(html).toContain('name="_gotcha"');
  expect(html).toContain('<input type="hidden" name="_redirect" value="https://shop.example/thanks">');
  await dialog.getByRole("tab", { name: "fetch()" }).click();
  expect(await shown(dialog, "JavaScript fetch call")).toContain(`fetch("${url}"`);
  expect(await shown(dialog, "JavaScript fetch call")).toContain(`"X-Webhook-Key": "${secret}"`);
  await dialog.getByRole("tab", { name: "curl" }).click();
  expect(await shown(dialog, "curl command")).toContain(`-H 'X-Webhook-Key: ${secret}'`);
  // The shown URL and secret take a submission.
  expect(await send(request, { url, secret }, { email: "ada@example.com" })).toMatchObject({ status: 200 });
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  // An advertising lead form: the two values its webhook setup asks for.
  dialog = await createSourceInPage(page, "Spring campaign", "Advertising lead form");
  await expect(dialog.getByRole("tab", { name: "Google Ads lead form" })).toHaveAttribute("aria-selected", "true");
  const adsUrl = await shown(dialog, "Webhook URL");
  const adsKey = await shown(dialog, "Key");
  expect(adsKey).toMatch(/^inlet_whsk_/);
  // The platform sends its lead with the key in the body, to the URL as given.
  const lead = await request.post(adsUrl, { data: ADS_LEAD(adsKey) });
  expect(lead.status(), await lead.text()).toBe(200);
  await dialog.getByRole("button", { name: "Close" }).click();

  // An automation platform's webhook step.
  dialog = await createSourceInPage(page, "CRM zap", "Automation platform");
  await expect(dialog.getByRole("tab", { name: "Zapier / Make" })).toHaveAttribute("aria-selected", "true");
  const step = {
    url: await shown(dialog, "URL"),
    payload: await shown(dialog, "Payload type"),
    header: await shown(dialog, "Header name"),
    key: await shown(dialog, "Header value"),
  };
  expect(step.payload).toBe("json");
  const zap = await request.post(step.url, { data: { email: "zap@example.com" }, headers: { [step.header]: step.key } });
  expect(zap.status(), await zap.text()).toBe(200);
  await dialog.getByRole("button", { name: "Close" }).click();

  // Each is listed with its kind; the secrets are gone from the page once reloaded.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Active (3)" })).toBeVisible();
  for (const [name, kind] of [
    ["Contact form", "Website form or script"],
    ["Spring campaign", "Advertising lead form"],
    ["CRM zap", "Automation platform"],
  ] as const) {
    await expect(sourceRow(page, name)).toContainText(kind);
  }
  const body = page.locator("body");
  for (const value of [secret, adsKey, step.key]) await expect(body).not.toContainText(value);
  // "Setup" shows the snippets again, with a placeholder where the secret was.
  await sourceRow(page, "Contact form").getByRole("button", { name: "Setup" }).click();
  dialog = page.getByRole("dialog", { name: "Set up Contact form" });
  expect(await shown(dialog, "HTML form")).toContain("?key=YOUR_WEBHOOK_SECRET");
  await expect(dialog.getByRole("textbox", { name: "Secret", exact: true })).toHaveCount(0);
  for (const value of [secret, adsKey, step.key]) await expect(body).not.toContainText(value);
});

test("disable refuses submissions (403), enable takes them again", async ({ signedIn: page, request, account }) => {
  const { source, row } = await openSiteWithOneSource(page, request, account);
  await expect(row).toContainText("Enabled");

  await row.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("Disabled");
  await expect(row.getByRole("button", { name: "Enable" })).toBeVisible();
  expect(await send(request, source, { email: "a@example.com" })).toMatchObject({ status: 403, code: "WEBHOOK_DISABLED" });

  await row.getByRole("button", { name: "Enable" }).click();
  await expect(row).toContainText("Enabled");
  expect(await send(request, source, { email: "a@example.com" })).toMatchObject({ status: 200 });
});

test("rotating the secret shows the new one once; the old one is refused from then on", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, source, row } = await openSiteWithOneSource(page, request, account);
  await row.getByRole("button", { name: "Rotate secret" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Rotate the secret of Contact form?" });
  await expect(confirm).toContainText("stops working within seconds");
  await confirm.getByRole("button", { name: "Rotate secret" }).click();

  const dialog = page.getByRole("dialog", { name: "New secret for Contact form" });
  const secret = await shown(dialog, "Secret");
  expect(secret).toMatch(/^inlet_whsk_/);
  expect(secret).not.toBe(source.secret);
  expect(await shown(dialog, "HTML form")).toContain(`?key=${secret}`);
  expect(await send(request, source, { email: "a@example.com" })).toMatchObject({ status: 401, code: "WEBHOOK_KEY_INVALID" });
  expect(await send(request, { url: source.url, secret }, { email: "a@example.com" })).toMatchObject({ status: 200 });

  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByRole("button", { name: "Rotate secret" })).toBeFocused();
  await counted(request, account, siteId, source.id, 1);
  await page.reload();
  await expect(row).toContainText("1 submission");
  await expect(page.locator("body")).not.toContainText(secret);
});

test("archive, restore (disabled), and permanent delete behind a confirmation naming what goes", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId, source, row } = await openSiteWithOneSource(page, request, account);
  await submit(request, source, { name: "Ada", email: "ada@example.com" });
  await counted(request, account, siteId, source.id, 1);
  await page.reload();

  await row.getByRole("button", { name: "Archive" }).click();
  await page.getByRole("alertdialog", { name: "Archive Contact form?" }).getByRole("button", { name: "Archive" }).click();
  await expect(page.getByRole("tab", { name: "Archived (1)" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Active (0)" })).toBeVisible();
  expect(await send(request, source, { email: "b@example.com" })).toMatchObject({ status: 410, code: "WEBHOOK_ARCHIVED" });

  await page.getByRole("tab", { name: "Archived (1)" }).click();
  await expect(row).toContainText("Archived");
  await row.getByRole("button", { name: "Restore" }).click();
  await expect(page.getByRole("tab", { name: "Active (1)" })).toBeVisible();
  await page.getByRole("tab", { name: "Active (1)" }).click();
  // Restored comes back disabled: it accepts nothing until enabled.
  await expect(row).toContainText("Disabled");
  expect(await send(request, source, { email: "b@example.com" })).toMatchObject({ status: 403, code: "WEBHOOK_DISABLED" });

  await row.getByRole("button", { name: "Archive" }).click();
  await page.getByRole("alertdialog", { name: "Archive Contact form?" }).getByRole("button", { name: "Archive" }).click();
  await page.getByRole("tab", { name: "Archived (1)" }).click();
  await row.getByRole("button", { name: "Delete permanently" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Permanently delete Contact form?" });
  // It names the source, its URL, and the form that goes with it, with its submissions.
  await expect(confirm).toContainText(source.url);
  await expect(confirm).toContainText("the form “Contact form” with its 1 submission");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Delete permanently" }).click();
  await confirm.getByRole("button", { name: "Delete permanently" }).click();
  await expect(page.getByText("No archived sources.")).toBeVisible();
  await expect(page.getByRole("tab", { name: "Archived (0)" })).toBeVisible();
  expect(await send(request, source, { email: "c@example.com" })).toMatchObject({ status: 404, code: "NOT_FOUND" });
});

test("keyboard only: open New source, create it, close with Escape, focus back on the trigger", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { siteId } = await siteWithSources(request, account, []);
  await page.goto(`/sites/${siteId}/sources`);
  const trigger = page.getByRole("button", { name: "New source" });
  await expect(trigger).toBeVisible();
  // Tab through the page until the trigger has focus, as a keyboard user does.
  const focusedTrigger = trigger.and(page.locator(":focus"));
  for (let i = 0; i < 20 && (await focusedTrigger.count()) === 0; i++) await page.keyboard.press("Tab");
  await expect(trigger).toBeFocused();
  await page.keyboard.press("Enter");

  const form = page.getByRole("dialog", { name: "New source" });
  await expect(form.getByLabel("Source name")).toBeFocused();
  await page.keyboard.type("Newsletter signup");
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("What sends to it")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(form.getByRole("button", { name: "Create source" })).toBeFocused();
  await page.keyboard.press("Enter");

  const ready = page.getByRole("dialog", { name: "Newsletter signup is ready" });
  await expect(ready.getByRole("textbox", { name: "Secret", exact: true })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(ready).toHaveCount(0);
  await expect(trigger).toBeFocused();
  await expect(sourceRow(page, "Newsletter signup")).toBeVisible();
});
