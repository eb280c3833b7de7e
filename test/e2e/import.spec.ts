import type { Page } from "@playwright/test";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { apiAs, expect, signIn, test } from "./support/fixtures";
import { createForm, createSite } from "./support/forms";
import { chooseFile, openImport } from "./support/import";
import { addMember } from "./support/settings";
import { widths } from "./support/triage";

/**
 * A form's Import page (docs/importing.md, docs/moving-in.md): a Formspree-style export previewed,
 * a mapping changed, imported with its progress to the summary, and the rows in the inbox at their
 * original dates with the Imported badge; a file with bad rows shows its problems by line and
 * imports the good ones; a member reads why the page is not theirs; axe in both themes; a phone.
 */

/** A Formspree-style export: its `_date` and `_replyto` columns, a quoted cell across two lines. */
const FORMSPREE_CSV = `_date,_replyto,name,message,_gotcha
2024-03-01T10:15:00Z,ada@example.com,Ada Lovelace,Hello from March,
2024-04-02T08:00:00Z,alan@example.com,Alan Turing,"Line one
line two",
2024-05-03T12:30:00Z,grace@example.com,Grace Hopper,Third one,
`;

/** A plain CSV whose line 3 has no time and line 4 no value at all. */
const BAD_ROWS_CSV = `email,message,created_at
ok@example.com,fine,2024-01-01T00:00:00Z
bad@example.com,bad time,not a date
,,2024-01-02T00:00:00Z
also-ok@example.com,fine too,2024-01-03T00:00:00Z
`;

/** Drops a file on the picker's box, as a person dragging it from their desktop. */
async function dropFile(page: Page, name: string, text: string) {
  // A string run in the page (this file is typed without the DOM's names).
  const dataTransfer = await page.evaluateHandle(
    `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(text)}], ${JSON.stringify(name)}, { type: "text/csv" })); return t; })()`,
  );
  await page.getByRole("group", { name: /The export file/ }).dispatchEvent("drop", { dataTransfer });
}

test("a Formspree export: preview, a mapping changed, imported with progress, in the inbox at its dates with the Imported badge", async ({
  signedIn: page,
  request,
  account,
}) => {
  const formId = await openImport(page, request, account);
  await expect(page.getByText("No imports yet.")).toBeVisible();

  // The preview's request is gzipped (CompressionStream), and writes nothing.
  const previewRequest = page.waitForRequest((r) => r.url().endsWith(`/forms/${formId}/import`) && r.method() === "POST");
  await chooseFile(page, "formspree-export.csv", FORMSPREE_CSV);
  expect((await previewRequest).headers()["content-encoding"]).toBe("gzip");
  const preview = page.getByRole("region", { name: "Preview of formspree-export.csv" });
  await expect(preview.getByText("Detected: Formspree export · 3 rows")).toBeVisible();
  const columns = preview.getByRole("table", { name: "Columns of the file and the fields they fill" });
  await expect(preview.getByLabel("Time column (when each submission arrived)")).toHaveValue("_date");
  await expect(columns.getByLabel("Import “name” as")).toHaveValue("name");
  await expect(columns.getByLabel("Import “_gotcha” as")).toHaveValue("");
  // `_replyto` would make a new field: it goes into the form's Email field instead.
  const replyTo = columns.getByLabel("Import “_replyto” as");
  await expect(replyTo.locator("option:checked")).toHaveText(/^New field: /);
  await replyTo.selectOption({ label: "Email (email)" });
  const sample = preview.getByRole("table", { name: /^The first 3 rows as they will be stored/ });
  await expect(sample.getByRole("row").filter({ hasText: "Ada Lovelace" })).toContainText("email: ada@example.com");
  await expect(sample.getByRole("row").filter({ hasText: "Alan Turing" }).getByRole("rowheader")).toHaveText("3");
  await expect(preview.getByText("No problems found.")).toBeVisible();
  expect((await apiAs<{ imports: unknown[] }>(request, account, "GET", `/api/v1/forms/${formId}/imports`)).imports).toEqual([]);

  await preview.getByRole("button", { name: "Import 3 rows" }).click();
  const job = page.getByRole("region", { name: /Import(ing…| finished)/ });
  await expect(job.getByRole("progressbar")).toBeVisible();
  await expect(job.getByRole("status")).toHaveText(
    "Finished: 3 rows imported (0 of them in spam), 0 duplicates already there, 0 skipped.",
    { timeout: 30_000 },
  );
  await expect(page.getByRole("table", { name: "Past imports of this form" })).toContainText("formspree-export.csv");

  await job.getByRole("link", { name: "Open the inbox" }).click();
  for (const [name, date] of [
    ["Ada Lovelace", "2024-03-01T10:15:00.000Z"],
    ["Alan Turing", "2024-04-02T08:00:00.000Z"],
    ["Grace Hopper", "2024-05-03T12:30:00.000Z"],
  ] as const) {
    const row = page.getByRole("row").filter({ hasText: name });
    await expect(row).toContainText("Imported");
    await expect(row.locator(`time[datetime="${date}"]`).first()).toBeAttached();
  }
  // The lead page says where it came from.
  await page.getByRole("link", { name: /Ada Lovelace/ }).click();
  await expect(page.getByText(/Imported from a Formspree export, line 2/)).toBeVisible();
  await expect(page.getByText("ada@example.com").first()).toBeVisible();
});

test("a file with bad rows: problems by line, the good rows imported, the same file again stores nothing twice", async ({
  signedIn: page,
  request,
  account,
}) => {
  const formId = await openImport(page, request, account);
  await dropFile(page, "leads.csv", BAD_ROWS_CSV);
  const preview = page.getByRole("region", { name: "Preview of leads.csv" });
  await expect(preview.getByText("Detected: CSV with a header row · 4 rows")).toBeVisible();
  const problems = preview.getByRole("list", { name: "Problems by line" });
  await expect(problems.getByRole("listitem").filter({ hasText: "Line 3" })).toContainText("INVALID_TIME");
  await expect(problems.getByRole("listitem").filter({ hasText: "Line 4" })).toContainText("NO_DATA");

  await preview.getByRole("button", { name: "Import 4 rows" }).click();
  const status = page.getByRole("region", { name: /Import(ing…| finished)/ }).getByRole("status");
  await expect(status).toHaveText("Finished: 2 rows imported (0 of them in spam), 0 duplicates already there, 2 skipped.", {
    timeout: 30_000,
  });
  const summary = page.getByRole("region", { name: /Import finished/ }).getByRole("list", { name: "Problems by line" });
  await expect(summary.getByRole("listitem")).toHaveText([/^Line 3/, /^Line 4/]);

  // The same file again: each good row is already there.
  await dropFile(page, "leads.csv", BAD_ROWS_CSV);
  await page.getByRole("region", { name: "Preview of leads.csv" }).getByRole("button", { name: "Import 4 rows" }).click();
  await expect(status).toHaveText("Finished: 0 rows imported (0 of them in spam), 2 duplicates already there, 2 skipped.", {
    timeout: 30_000,
  });
  const { imports } = await apiAs<{ imports: { imported: number }[] }>(
    request,
    account,
    "GET",
    `/api/v1/forms/${formId}/imports`,
  );
  expect(imports.map((i) => i.imported)).toEqual([0, 2]);
});

test("a file the import cannot read says why; one over 20 MB is refused before it is sent", async ({
  signedIn: page,
  request,
  account,
}) => {
  await openImport(page, request, account);
  await page.getByLabel("Format").selectOption({ label: "JSON array of objects" });
  await page.getByLabel("Export file (CSV or JSON)").setInputFiles({
    name: "export.json",
    mimeType: "application/json",
    buffer: Buffer.from('{"not": "an array"}'),
  });
  await expect(page.getByRole("alert")).toHaveText(/A JSON file is an array of objects/);
  await expect(page.getByRole("button", { name: /^Import \d+ rows?$/ })).toHaveCount(0);

  let posted = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().endsWith("/import")) posted++;
  });
  const input = page.getByLabel("Export file (CSV or JSON)");
  await input.setInputFiles({ name: "huge.csv", mimeType: "text/csv", buffer: Buffer.alloc(21 * 1024 * 1024, "a") });
  await expect(input).toHaveAccessibleDescription(/huge\.csv is 21 MB: the import reads files up to 20 MB/);
  expect(posted).toBe(0);
});

test("a member reads why the Import page is not theirs", async ({ page, request, account }) => {
  const siteId = await createSite(request, account);
  const form = await createForm(request, account, siteId, { name: "Contact" });
  const member = await addMember(request, account, "member", "Mo Member");
  await signIn(page, member);
  await page.goto(`/forms/${form.id}/import`);
  await expect(page.getByText(/Your role \(member\) cannot import submissions/)).toBeVisible();
  await expect(page.getByLabel("Export file (CSV or JSON)")).toHaveCount(0);
});

test("on a phone the preview fits the screen's width", async ({ signedIn: page, request, account }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openImport(page, request, account);
  await chooseFile(page, "formspree-export.csv", FORMSPREE_CSV);
  await expect(page.getByRole("button", { name: "Import 3 rows" })).toBeVisible();
  const { scroll, inner } = await widths(page);
  expect(scroll).toBeLessThanOrEqual(inner);
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the preview and the summary at 390 px fit and pass axe in light and dark", async ({
    signedIn: page,
    request,
    account,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openImport(page, request, account);
    await chooseFile(page, "formspree-export.csv", FORMSPREE_CSV);
    await expect(page.getByRole("button", { name: "Import 3 rows" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "the Import page's preview on a phone");
    await page.getByRole("button", { name: "Import 3 rows" }).click();
    await expect(page.getByRole("table", { name: "Past imports of this form" })).toContainText("3 rows imported", {
      timeout: 30_000,
    });
    const { scroll, inner } = await widths(page);
    expect(scroll).toBeLessThanOrEqual(inner);
    await expectAccessibleInBothThemes(page, "the Import page's summary and past imports on a phone");
  });

  test("the Import page with a preview, then its summary, and an imported lead pass axe in light and dark", async ({
    signedIn: page,
    request,
    account,
  }) => {
    await openImport(page, request, account);
    await chooseFile(page, "leads.csv", BAD_ROWS_CSV);
    await expect(page.getByRole("button", { name: "Import 4 rows" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "the Import page with a preview and problems");
    await page.getByRole("button", { name: "Import 4 rows" }).click();
    await expect(page.getByRole("status").filter({ hasText: /^Finished/ })).toBeVisible({ timeout: 30_000 });
    await expectAccessibleInBothThemes(page, "the Import page with a finished import");
    await page.getByRole("link", { name: "Open the inbox" }).click();
    await expect(page.getByRole("row").filter({ hasText: "Imported" }).first()).toBeVisible();
    await expectAccessibleInBothThemes(page, "the inbox with imported leads");
    await page
      .getByRole("link", { name: /ok@example.com/ })
      .first()
      .click();
    await expect(page.getByText(/Imported from a CSV file, line/)).toBeVisible();
    await expectAccessibleInBothThemes(page, "an imported lead's page");
  });
});
