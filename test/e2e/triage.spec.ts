import type { APIRequestContext } from "@playwright/test";
import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { type Account, apiAs, expect, signIn, test } from "./support/fixtures";
import { rows } from "./support/inbox";
import { addMember, createKey, setPlan } from "./support/settings";
import {
  announcement,
  createTag,
  expectNoSidewaysScroll,
  leadOf,
  leads,
  patchLead,
  rowOf,
  statusCounts,
  userIdOf,
} from "./support/triage";

/**
 * Working the leads in the dashboard (docs/dashboard.md, "Working the leads"): the
 * inbox's filters in the URL, bulk actions on a selection, keyboard triage, a lead's page (status,
 * owner, tags, notes, timeline, a 409), and Settings → Tags, with axe in both themes. The
 * "phone" project (playwright.config.ts) runs them again at 390 × 844 on a touch screen, where
 * nothing may scroll sideways; keyboard triage is the one flow that does not apply there.
 */
test.use({ bypassCSP: true });

/** Waits until the list API answers `count` leads for `query` (filter entries follow the table stream). */
async function listed(request: APIRequestContext, account: Account, formId: string, query: string, count: number) {
  await expect
    .poll(
      async () =>
        (await apiAs<{ submissions: unknown[] }>(request, account, "GET", `/api/v1/forms/${formId}/submissions?${query}`))
          .submissions.length,
      { timeout: 15_000 },
    )
    .toBe(count);
}

test("filters by status (with counts), owner, tag and unread combine, live in the URL, and each row shows its triage", async ({
  signedIn: page,
  context,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Ada Lovelace", "Grace Hopper", "Alan Turing"]);
  const me = await userIdOf(request, account);
  const vip = await createTag(request, account, "VIP", "purple");
  await patchLead(request, account, form.ids["Ada Lovelace"] ?? "", { status: "contacted", ownerId: me, tags: [vip.id] });
  await patchLead(request, account, form.ids["Grace Hopper"] ?? "", { status: "contacted", tags: [vip.id] });
  await statusCounts(request, account, form.formId, { new: 1, contacted: 2 });
  await listed(request, account, form.formId, `status=contacted&owner=me&tag=${vip.id}`, 1);

  await page.goto(`/forms/${form.formId}`);
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByRole("button", { name: "Contacted (2)" })).toBeVisible();
  await expect(page.getByRole("button", { name: "New (1)" })).toBeVisible();
  const ada = rowOf(page, "Ada Lovelace");
  await expect(ada).toContainText("Contacted");
  await expect(ada).toContainText("Owner: me");
  await expect(ada.getByRole("list", { name: "Tags" })).toContainText("VIP");
  await expect(rowOf(page, "Alan Turing")).toContainText("No owner");
  // Nobody has opened them: each row is bold and says so in words (not by colour alone).
  await expect(ada.getByRole("link", { name: "Ada Lovelace (unread)" })).toHaveClass(/font-bold/);
  await expectNoSidewaysScroll(page, "the inbox with triage");
  await expectAccessible(page, "the inbox with triage");

  await page.getByRole("button", { name: "Contacted (2)" }).click();
  await expect(page.getByRole("button", { name: "Contacted (2)" })).toHaveAttribute("aria-pressed", "true");
  await expect(rows(page)).toHaveCount(2);
  await expect(page).toHaveURL(/[?&]status=contacted/);
  await page.getByLabel("Owner").selectOption({ label: "Mine" });
  await expect(rows(page)).toHaveCount(1);
  await page.getByLabel("Tag", { exact: true }).selectOption({ label: "VIP" });
  await expect(page).toHaveURL(new RegExp(`owner=me.*tag=${vip.id}|tag=${vip.id}.*owner=me`));
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Ada Lovelace");
  await expectNoSidewaysScroll(page, "the inbox filtered");

  // A reload and a shared link show the same view.
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByLabel("Owner")).toHaveValue("me");
  const shared = await context.newPage();
  await shared.goto(page.url());
  await expect(rows(shared)).toHaveCount(1);
  await expect(rows(shared).first()).toContainText("Ada Lovelace");
  await shared.close();

  // Nobody's: the contacted lead without an owner.
  await page.getByLabel("Owner").selectOption({ label: "Nobody's" });
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Grace Hopper");

  // Opening a lead marks it read: "Unread only" leaves it out.
  await page.goto(`/submissions/${form.ids["Alan Turing"]}`);
  await expect(page.getByRole("heading", { name: "Working this lead" })).toBeVisible();
  await expect.poll(async () => (await leadOf(request, account, form.ids["Alan Turing"] ?? "")).unread).toBe(false);
  await page.goto(`/forms/${form.formId}?unread=true`);
  await expect(page.getByLabel("Unread only")).toBeChecked();
  await expect(rows(page)).toHaveCount(2);
  await expect(rows(page).filter({ hasText: "Alan Turing" })).toHaveCount(0);
  await page.getByLabel("Unread only").uncheck();
  await expect(rows(page)).toHaveCount(3);
  await expect(rowOf(page, "Alan Turing").getByRole("link", { name: "Alan Turing" })).not.toHaveClass(/font-bold/);
});

test("bulk actions set status, assign, tag and delete a selection, and report what was refused", async ({
  signedIn: page,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Bulk one", "Bulk two", "Bulk three"]);
  const colleague = await addMember(request, account, "member", "Colleague Cora");
  await createTag(request, account, "Hot", "red");
  await page.goto(`/forms/${form.formId}`);
  await expect(rows(page)).toHaveCount(3);

  await page.getByRole("checkbox", { name: "Select Bulk one" }).check();
  await page.getByRole("checkbox", { name: "Select Bulk two" }).check();
  const bar = page.getByRole("region", { name: "Selection actions" });
  await expect(bar).toContainText("2 selected");
  await bar.getByRole("button", { name: "Set status" }).click();
  await expect(page.getByRole("menuitem", { name: "Qualified" })).toBeVisible();
  await expectNoSidewaysScroll(page, "the inbox with the bulk status menu open");
  await expectAccessible(page, "the inbox with the bulk status menu open");
  await page.getByRole("menuitem", { name: "Qualified" }).click();
  await expect(announcement(page)).toHaveText("Status set to Qualified on 2 leads.");
  await expect(rowOf(page, "Bulk one")).toContainText("Qualified");
  await expect(rowOf(page, "Bulk two")).toContainText("Qualified");
  await expect(rowOf(page, "Bulk three")).toContainText("New");

  await bar.getByRole("button", { name: "Assign" }).click();
  await expectNoSidewaysScroll(page, "the inbox with the bulk assign menu open");
  await page.getByRole("menuitem", { name: "To Colleague Cora" }).click();
  await expect(announcement(page)).toHaveText("Assigned to Colleague Cora on 2 leads.");
  await expect(rowOf(page, "Bulk one")).toContainText("Owner: Colleague Cora");
  expect((await leadOf(request, account, form.ids["Bulk two"] ?? "")).ownerId).toBe(colleague.userId);

  await bar.getByRole("button", { name: "Add tag" }).click();
  await page.getByRole("menuitem", { name: "Hot" }).click();
  await expect(announcement(page)).toHaveText("Tag Hot added on 2 leads.");
  await expect(rowOf(page, "Bulk two").getByRole("list", { name: "Tags" })).toContainText("Hot");
  await bar.getByRole("button", { name: "Remove tag" }).click();
  await page.getByRole("menuitem", { name: "Hot" }).click();
  await expect(announcement(page)).toHaveText("Tag Hot removed on 2 leads.");
  await expect(rowOf(page, "Bulk two").getByRole("list", { name: "Tags" })).toHaveCount(0);

  // One of the selection goes to spam meanwhile: the rest is changed, and the refusal is said.
  await apiAs(request, account, "PUT", `/api/v1/submissions/${form.ids["Bulk two"]}`, { isSpam: true });
  await bar.getByRole("button", { name: "Set status" }).click();
  await page.getByRole("menuitem", { name: "Won" }).click();
  await expect(announcement(page)).toHaveText("Status set to Won on 1 lead; 1 refused (in spam).");
  expect((await leadOf(request, account, form.ids["Bulk one"] ?? "")).status).toBe("won");

  await page.getByRole("button", { name: "Clear selection" }).click();
  await page.getByRole("checkbox", { name: "Select Bulk three" }).check();
  await bar.getByRole("button", { name: "Delete selected" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("1 deleted", { exact: true })).toBeVisible();
  await expect(rows(page).filter({ hasText: "Bulk three" })).toHaveCount(0);
});

test("keyboard triage: move, select, set status, assign to me, unread, help and open, never while typing", async ({
  signedIn: page,
  request,
  account,
  hasTouch,
}) => {
  test.skip(hasTouch, "a phone has no keyboard shortcuts: its on-screen keyboard types into fields only");
  const form = await leads(request, account, ["Key one", "Key two", "Key three"]);
  const me = await userIdOf(request, account);
  await page.goto(`/forms/${form.formId}`);
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByText("Keyboard shortcuts")).toBeVisible();

  // The newest is first and active; j moves down, k up, and focus follows (one tab stop: roving tabindex).
  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("j");
  await expect(page.getByRole("link", { name: /^Key two/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("link", { name: /^Key one/ })).toBeFocused();
  await page.keyboard.press("k");
  await expect(page.getByRole("link", { name: /^Key two/ })).toBeFocused();
  await expect(page.getByRole("link", { name: /^Key two/ })).toHaveAttribute("tabindex", "0");
  await expect(page.getByRole("link", { name: /^Key one/ })).toHaveAttribute("tabindex", "-1");

  await page.keyboard.press("2");
  await expect(announcement(page)).toHaveText("Status set to Contacted on 1 lead.");
  await expect(rowOf(page, "Key two")).toContainText("Contacted");
  await page.keyboard.press("a");
  await expect(announcement(page)).toHaveText("Assigned to you on 1 lead.");
  expect((await leadOf(request, account, form.ids["Key two"] ?? "")).ownerId).toBe(me);

  await page.keyboard.press("u");
  await expect(announcement(page)).toHaveText("Marked read.");
  await expect(page.getByRole("link", { name: "Key two (unread)" })).toHaveCount(0);
  await page.keyboard.press("u");
  await expect(announcement(page)).toHaveText("Marked unread.");
  await expect(page.getByRole("link", { name: "Key two (unread)" })).toBeVisible();

  // x selects the active row and the next status applies to the whole selection.
  await page.keyboard.press("x");
  await expect(page.getByRole("checkbox", { name: "Select Key two" })).toBeChecked();
  await page.keyboard.press("j");
  await page.keyboard.press("x");
  await expect(page.getByRole("checkbox", { name: "Select Key one" })).toBeChecked();
  await page.keyboard.press("3");
  await expect(announcement(page)).toHaveText("Status set to Qualified on 2 leads.");

  // Typing in a field sends no shortcut.
  await page.getByLabel("Search").fill("");
  await page.getByLabel("Search").pressSequentially("jk2a");
  await expect(page.getByLabel("Search")).toHaveValue("jk2a");
  await expect(announcement(page)).toHaveText("Status set to Qualified on 2 leads.");
  expect((await leadOf(request, account, form.ids["Key three"] ?? "")).status).toBe("new");

  await page.locator("body").click({ position: { x: 1, y: 1 } });
  await page.keyboard.press("?");
  const help = page.locator("details", { hasText: "Keyboard shortcuts" });
  await expect(help).toHaveAttribute("open", "");
  await expect(page.getByText("Set status to Won")).toBeVisible();
  await expectAccessible(page, "the inbox with the keyboard shortcuts open");
  // Focus is on the disclosure: Enter is its own (it closes), not "open the lead".
  await expect(page.getByText("Keyboard shortcuts", { exact: true })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(help).not.toHaveAttribute("open", "");
  await expect(page).toHaveURL(new RegExp(`/forms/${form.formId}`));

  await page.getByRole("link", { name: /^Key one/ }).focus();
  await page.keyboard.press("o");
  await expect(page).toHaveURL(new RegExp(`/submissions/${form.ids["Key one"]}`));
});

test("a lead's page: status, owner, tags and notes in place, the timeline, mailto/tel links, and a 409 when someone else changed it", async ({
  signedIn: page,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Page Lead"]);
  const id = form.ids["Page Lead"] ?? "";
  await createTag(request, account, "Callback", "teal");
  await page.goto(`/submissions/${id}`);
  await expect(page.getByRole("heading", { name: "Working this lead" })).toBeVisible();
  await expect(page.getByRole("link", { name: "page@example.com" })).toHaveAttribute("href", "mailto:page@example.com");
  await expect(page.getByRole("link", { name: "+1 650 555 0110" })).toHaveAttribute("href", "tel:+16505550110");

  await page.getByLabel("Status").selectOption("contacted");
  await expect(page.getByText("Status set to Contacted", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText("You set the status from New to Contacted");
  await page.getByLabel("Owner").selectOption({ label: `${account.name} (you)` });
  await expect(page.getByText("Assigned to you", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Callback" }).click();
  await expect(page.getByRole("button", { name: "Callback" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText("You added the tag Callback");

  await page.getByLabel("Add a note").fill("Called, wants a quote by Friday.");
  await page.getByRole("button", { name: "Add note" }).click();
  const notes = page.getByRole("region", { name: "Notes" });
  await expect(notes).toContainText("Called, wants a quote by Friday.");
  await notes.getByRole("button", { name: /^Edit/ }).click();
  await notes.getByLabel("Edit the note").fill("Called, wants a quote by Monday.");
  await notes.getByRole("button", { name: "Save note" }).click();
  await expect(notes).toContainText("Called, wants a quote by Monday.");
  await expect(notes).toContainText("(edited)");
  await expectNoSidewaysScroll(page, "a lead's page with notes and a timeline");
  await expectAccessible(page, "a lead's page with notes and a timeline");
  await notes.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete note" }).click();
  await expect(notes).toContainText("No notes yet.");

  // An integration (an API key) changes the lead after the page read it: the next save is refused.
  await setPlan(request, account, "agency");
  const key = await createKey(request, account, "CRM sync");
  await patchLead(request, { ...account, token: key.secretKey }, id, { status: "qualified" });
  await page.getByLabel("Status").selectOption("won");
  const alert = page.getByRole("alert").filter({ hasText: "Someone else changed this lead" });
  await expect(alert).toBeVisible();
  await expect(page.getByLabel("Status")).toBeDisabled();
  await expectAccessible(page, "a lead's page after a conflict");
  await alert.getByRole("button", { name: "Reload" }).click();
  await expect(alert).toHaveCount(0);
  await expect(page.getByLabel("Status")).toHaveValue("qualified");
  // Reload reads the timeline too: the key is named as it was called at the time.
  await expect(page.getByRole("region", { name: "Timeline" })).toContainText(
    "API key CRM sync set the status from Contacted to Qualified",
  );
  expect((await leadOf(request, account, id)).status).toBe("qualified");
});

test("Settings → Tags: create, rename and recolour, delete with a confirmation", async ({ signedIn: page }) => {
  await page.goto("/settings/tags");
  await expect(page.getByRole("heading", { name: "Tags", exact: true })).toBeVisible();
  await expect(page.getByText("No tags yet.")).toBeVisible();
  const create = page.getByRole("region", { name: "New tag" });
  await create.getByLabel("Name").fill("Follow up");
  await create.getByRole("radio", { name: "Amber" }).check();
  await create.getByRole("button", { name: "Create tag" }).click();
  const list = page.getByRole("list", { name: "Tags" });
  await expect(list).toContainText("Follow up");
  await expect(create.getByLabel("Name")).toHaveValue("");

  // The same name again (in another case) is refused by the API, and the page says why.
  await create.getByLabel("Name").fill("follow UP");
  await create.getByRole("button", { name: "Create tag" }).click();
  await expect(create.getByRole("alert")).toHaveText("Another tag already has this name (names are compared without case).");

  for (const colour of ["Gray", "Red", "Green", "Blue", "Pink"]) {
    await create.getByLabel("Name").fill(`Colour ${colour}`);
    await create.getByRole("radio", { name: colour }).check();
    await create.getByRole("button", { name: "Create tag" }).click();
    await expect(list).toContainText(`Colour ${colour}`);
  }
  await expectNoSidewaysScroll(page, "Settings → Tags");
  await expectAccessible(page, "Settings → Tags");

  await page.getByRole("button", { name: "Edit Follow up" }).click();
  const dialog = page.getByRole("dialog");
  await expectNoSidewaysScroll(page, "Settings → Tags with a tag's dialog open");
  await dialog.getByLabel("Name").fill("Call back");
  await dialog.getByRole("radio", { name: "Teal" }).check();
  await dialog.getByRole("button", { name: "Save tag" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(list).toContainText("Call back");
  await expect(list).not.toContainText("Follow up");

  await page.getByRole("button", { name: "Delete Call back" }).click();
  await expect(page.getByRole("alertdialog")).toContainText("Delete the tag Call back?");
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete tag" }).click();
  await expect(list).not.toContainText("Call back");
});

test("a member takes an unowned lead or gives up their own; someone else's lead is for owners and admins", async ({
  page,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Owned lead", "Free lead"]);
  const member = await addMember(request, account, "member", "Member Max");
  await patchLead(request, account, form.ids["Owned lead"] ?? "", { ownerId: await userIdOf(request, account) });
  await signIn(page, member);

  await page.goto(`/submissions/${form.ids["Owned lead"]}`);
  await expect(page.getByLabel("Owner")).toBeDisabled();
  await expect(page.getByText("only owners and admins can give it to someone else")).toBeVisible();

  await page.goto(`/submissions/${form.ids["Free lead"]}`);
  const owner = page.getByLabel("Owner");
  await expect(owner).toBeEnabled();
  await expect(owner.locator("option")).toHaveText(["Nobody", "Member Max (you)"]);
  await owner.selectOption({ label: "Member Max (you)" });
  await expect(page.getByText("Assigned to you", { exact: true })).toBeVisible();
  expect((await leadOf(request, account, form.ids["Free lead"] ?? "")).ownerId).toBe(member.userId);
  await owner.selectOption({ label: "Nobody" });
  await expect(page.getByText("Unassigned", { exact: true })).toBeVisible();
  expect((await leadOf(request, account, form.ids["Free lead"] ?? "")).ownerId).toBeNull();
});
