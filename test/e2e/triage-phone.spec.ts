import { expectAccessibleInBothThemes as expectAccessible } from "./support/a11y";
import { expect, test } from "./support/fixtures";
import { rows } from "./support/inbox";
import { announcement, createTag, leadOf, leads, patchLead, rowOf, userIdOf, widths } from "./support/triage";

/**
 * Working the leads on a phone (docs/triage.md): at 390 px wide the inbox and a lead's page scroll
 * only downwards, the header folds into a menu, rows and the selection bar fit, every action is
 * reachable, and the submitter's email and phone start a mail or a call.
 */
test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, bypassCSP: true });

test("the inbox at 390 px: no sideways scroll, a folded header, thumb-sized rows, and a selection bar that fits", async ({
  signedIn: page,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Maximiliana Wolfeschlegelsteinhausenbergerdorff", "Short Name", "Phone Lead"]);
  const tag = await createTag(request, account, "Needs a very long follow up", "indigo");
  await patchLead(request, account, form.ids["Short Name"] ?? "", {
    status: "qualified",
    ownerId: await userIdOf(request, account),
    tags: [tag.id],
  });
  await page.goto(`/forms/${form.formId}`);
  await expect(rows(page)).toHaveCount(3);
  await expect(rowOf(page, "Short Name")).toContainText("Qualified");

  let { scroll, inner } = await widths(page);
  expect(scroll).toBeLessThanOrEqual(inner);

  // The header's links are behind "Menu".
  const menu = page.getByRole("button", { name: "Menu" });
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
  await menu.click();

  // A row is a thumb's target: its checkbox and link are at least 24 px tall.
  const box = await page.getByRole("checkbox", { name: "Select Phone Lead" }).boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(24);

  await page.getByRole("checkbox", { name: "Select Phone Lead" }).tap();
  await page.getByRole("checkbox", { name: "Select Short Name" }).tap();
  const bar = page.getByRole("region", { name: "Selection actions" });
  await expect(bar).toContainText("2 selected");
  const barBox = await bar.boundingBox();
  expect((barBox?.x ?? -1) >= 0 && (barBox?.x ?? 0) + (barBox?.width ?? 999) <= 390).toBe(true);
  ({ scroll, inner } = await widths(page));
  expect(scroll).toBeLessThanOrEqual(inner);

  await bar.getByRole("button", { name: "Set status" }).tap();
  await page.getByRole("menuitem", { name: "Contacted" }).tap();
  await expect(announcement(page)).toHaveText("Status set to Contacted on 2 leads.");
  expect((await leadOf(request, account, form.ids["Phone Lead"] ?? "")).status).toBe("contacted");
  // Moving to spam, a desktop row action, is in the bar.
  await expect(bar.getByRole("button", { name: "Mark as spam" })).toBeVisible();
  await expectAccessible(page, "the inbox on a phone");
});

test("a lead's page at 390 px: no sideways scroll, status and notes reachable, email and phone are links", async ({
  signedIn: page,
  request,
  account,
}) => {
  const form = await leads(request, account, ["Phone Page Lead"]);
  const id = form.ids["Phone Page Lead"] ?? "";
  await page.goto(`/submissions/${id}`);
  await expect(page.getByRole("heading", { name: "Working this lead" })).toBeVisible();
  const { scroll, inner } = await widths(page);
  expect(scroll).toBeLessThanOrEqual(inner);

  await expect(page.getByRole("link", { name: "phone@example.com" })).toHaveAttribute("href", "mailto:phone@example.com");
  await expect(page.getByRole("link", { name: "+1 650 555 0110" })).toHaveAttribute("href", "tel:+16505550110");

  await page.getByLabel("Status").selectOption("contacted");
  await expect(page.getByText("Status set to Contacted", { exact: true })).toBeVisible();
  await page.getByLabel("Add a note").fill("Rang from the car park.");
  await page.getByRole("button", { name: "Add note" }).tap();
  await expect(page.getByRole("region", { name: "Notes" })).toContainText("Rang from the car park.");
  await expect(page.getByRole("button", { name: "Mark as spam" })).toBeVisible();
  expect((await leadOf(request, account, id)).status).toBe("contacted");
  await expectAccessible(page, "a lead's page on a phone");
});
