import { readFileSync } from "node:fs";
import { apiAs, createSource, expect, test } from "./support/fixtures";
import { createSourceOf, getSubmission, graded, organizationOf, rows, seedSubmissions, send } from "./support/inbox";

test("the inbox lists submissions newest first with their main values, reference, arrival and lead grade", async ({
  signedIn: page,
  request,
  account,
}) => {
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Ada Lovelace", email: "ada@gmail.com", message: "Hello" });
  const second = await send(request, source, {
    name: "Grace Hopper",
    email: "grace@navy-systems.com",
    company: "Navy Systems",
    phone: "+1 650 555 0123",
  });
  const { formId } = await getSubmission(request, account, first.submissionId);
  const hot = await graded(request, account, second.submissionId);
  const cold = await graded(request, account, first.submissionId);

  await page.goto(`/forms/${formId}`);
  await expect(rows(page)).toHaveCount(2);
  const [top, bottom] = [rows(page).nth(0), rows(page).nth(1)];
  await expect(top.getByRole("link", { name: "Grace Hopper" })).toBeVisible();
  await expect(top).toContainText("grace@navy-systems.com");
  await expect(top).toContainText(second.referenceId);
  await expect(top).toContainText(/now|seconds? ago|minutes? ago/);
  await expect(top).toContainText(new RegExp(`${hot.lead?.grade} lead ${hot.lead?.score}/100`, "i"));
  await expect(bottom.getByRole("link", { name: "Ada Lovelace" })).toBeVisible();
  await expect(bottom).toContainText(first.referenceId);
  await expect(bottom).toContainText(new RegExp(`${cold.lead?.grade} lead ${cold.lead?.score}/100`, "i"));
});

test("Load more appends the next page of 50", async ({ signedIn: page, request, account }) => {
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Newest", email: "newest@example.com" });
  const submission = await getSubmission(request, account, first.submissionId);
  await seedSubmissions(submission, await organizationOf(request, account), 54);

  await page.goto(`/forms/${submission.formId}`);
  await expect(rows(page)).toHaveCount(50);
  await expect(rows(page).first()).toContainText("Newest");
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows(page)).toHaveCount(55);
  await expect(rows(page).last()).toContainText("Seeded lead 54");
  await expect(page.getByRole("button", { name: "Load more" })).toHaveCount(0);
});

test("search and date range live in the URL: a reload and a shared link show the same rows", async ({
  signedIn: page,
  context,
  request,
  account,
}) => {
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Today", email: "today@example.com" });
  const submission = await getSubmission(request, account, first.submissionId);
  // Seeded lead n arrived n minutes before `first`; one every minute is too close for days, so
  // seed ten a day apart instead.
  await seedSubmissions(submission, await organizationOf(request, account), 10, 24 * 3600_000);
  const day = (n: number) => new Date(Date.parse(submission.createdAt) - n * 24 * 3600_000).toISOString().slice(0, 10);

  // The search index follows the table stream within seconds: wait until it holds the seeded leads.
  const searched = async () =>
    (await apiAs<{ submissions: unknown[] }>(request, account, "GET", `/api/v1/forms/${submission.formId}/submissions?q=seeded`))
      .submissions.length;
  await expect.poll(searched).toBe(10);

  await page.goto(`/forms/${submission.formId}`);
  await expect(rows(page)).toHaveCount(11);
  // A word of a name finds every lead holding it (search is by whole values and words: docs/api.md).
  await page.getByLabel("Search").fill("Seeded");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows(page)).toHaveCount(10);
  await expect(page).toHaveURL(/[?&]q=Seeded/);

  await page.getByLabel("From").fill(day(10));
  await page.getByLabel("To").fill(day(5));
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows(page)).toHaveCount(6);
  await expect(rows(page).first()).toContainText("Seeded lead 5");
  await expect(page).toHaveURL(new RegExp(`from=${day(10)}.*to=${day(5)}`));

  await page.reload();
  await expect(rows(page)).toHaveCount(6);
  await expect(rows(page).last()).toContainText("Seeded lead 10");
  await expect(page.getByLabel("Search")).toHaveValue("Seeded");
  await expect(page.getByLabel("From")).toHaveValue(day(10));

  const shared = await context.newPage();
  await shared.goto(page.url());
  await expect(rows(shared)).toHaveCount(6);
  await expect(rows(shared).first()).toContainText("Seeded lead 5");

  await shared.getByRole("button", { name: "Clear filters" }).click();
  await expect(rows(shared)).toHaveCount(11);
});

test("the detail view shows every field and the metadata of an ads lead, with its lead score and reasons", async ({
  signedIn: page,
  request,
  account,
}) => {
  const source = await createSourceOf(request, account, "partner_ads");
  // Raw JSON text: the platform's 64-bit ids are bigger than a JavaScript number holds exactly.
  const lead = {
    lead_id: `lead-${Date.now()}`,
    api_version: "1.0",
    form_id: "@FORM_ID@",
    campaign_id: 12345678901,
    adgroup_id: 20000000000,
    creative_id: 30000000000,
    gcl_id: "EAIaIQobChMI-test-click",
    google_key: source.secret,
    user_column_data: [
      { column_name: "Full Name", string_value: "Margaret Hamilton", column_id: "FULL_NAME" },
      { column_name: "User Email", string_value: "margaret@apollo-software.com", column_id: "WORK_EMAIL" },
      { column_name: "Company", string_value: "Apollo Software", column_id: "COMPANY_NAME" },
      { column_name: "Budget", string_value: "50k", column_id: "what_is_your_budget?" },
    ],
  };
  const response = await request.post(source.url, {
    data: JSON.stringify(lead).replace('"@FORM_ID@"', "7100000001234567891"),
    headers: { "content-type": "application/json", "user-agent": "Google-Ads-Lead-Forms", referer: "https://ads.example.com/" },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { submissionId, referenceId } = (await response.json()) as { submissionId: string; referenceId: string };
  const { formId, lead: grade } = await graded(request, account, submissionId);

  await page.goto(`/forms/${formId}`);
  await page.getByRole("link", { name: "Margaret Hamilton" }).click();
  await expect(page.getByRole("heading", { name: `Submission ${referenceId}` })).toBeVisible();
  const fields = page.getByRole("region", { name: "Fields" });
  for (const value of ["Margaret Hamilton", "margaret@apollo-software.com", "Apollo Software", "50k"]) {
    await expect(fields.getByText(value, { exact: true })).toBeVisible();
  }
  const metadata = page.getByRole("region", { name: "Metadata" });
  await expect(metadata).toContainText("https://ads.example.com/");
  await expect(metadata).toContainText("Google-Ads-Lead-Forms");
  const ads = page.getByRole("region", { name: "Advertising platform" });
  await expect(ads).toContainText("7100000001234567891"); // the 64-bit id, exact
  await expect(ads).toContainText("12345678901");
  await expect(ads).toContainText("EAIaIQobChMI-test-click");
  const leadCard = page.getByRole("region", { name: "Lead score" });
  await expect(leadCard.getByRole("heading")).toHaveText(new RegExp(`${grade?.grade} lead, score ${grade?.score} of 100`, "i"));
  expect(grade?.reasons.length).toBeGreaterThan(1);
  for (const reason of grade?.reasons ?? []) await expect(leadCard.getByText(reason)).toBeVisible();
});

test("the detail view lists the files a multipart post dropped", async ({ signedIn: page, request, account }) => {
  const source = await createSource(request, account);
  const response = await request.post(source.url, {
    multipart: {
      name: "Katherine Johnson",
      email: "katherine@example.com",
      resume: { name: "resume.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 not read") },
    },
    headers: { "x-webhook-key": source.secret, "user-agent": "Mozilla/5.0 Chrome/140.0", referer: "https://www.example.com/" },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { submissionId } = (await response.json()) as { submissionId: string };
  await page.goto(`/submissions/${submissionId}`);
  const metadata = page.getByRole("region", { name: "Metadata" });
  await expect(metadata.getByRole("definition").filter({ hasText: "resume" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Fields" })).not.toContainText("resume");
});

test("a banner says when polling finds new submissions, and shows them on request", async ({
  signedIn: page,
  request,
  account,
}) => {
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Already here", email: "here@example.com" });
  const { formId } = await getSubmission(request, account, first.submissionId);
  await page.goto(`/forms/${formId}`);
  await expect(rows(page)).toHaveCount(1);

  await send(request, source, { name: "Just arrived", email: "new1@example.com" });
  await send(request, source, { name: "Also new", email: "new2@example.com" });
  // The inbox polls every 10 s: the banner shows within one interval, without a reload.
  const banner = page.getByRole("status").filter({ hasText: "new submissions" });
  await expect(banner).toHaveText(/2 new submissions/, { timeout: 15_000 });
  await expect(rows(page)).toHaveCount(1);
  await banner.getByRole("button", { name: "Show them" }).click();
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).first()).toContainText("Also new");
  await expect(banner).toHaveCount(0);
});

test("delete one from its detail view, and several at once from the list", async ({ signedIn: page, request, account }) => {
  const source = await createSource(request, account);
  const sent = [];
  for (const name of ["Keep me", "Delete alone", "Bulk one", "Bulk two"]) {
    sent.push(await send(request, source, { name, email: `${name.replace(" ", ".").toLowerCase()}@example.com` }));
  }
  const { formId } = await getSubmission(request, account, sent[0]?.submissionId ?? "");
  await page.goto(`/forms/${formId}`);
  await expect(rows(page)).toHaveCount(4);

  await page.getByRole("link", { name: "Delete alone" }).click();
  // The inbox stays on screen while the detail page loads, and its own buttons match "Delete"
  // by substring: wait for the page, and name the button exactly.
  await expect(page.getByRole("heading", { name: /^Submission / })).toBeVisible();
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  const dialog = page.getByRole("alertdialog", { name: "Delete this submission?" });
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("heading", { name: /Contact form/ })).toBeVisible();
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByRole("link", { name: "Delete alone" })).toHaveCount(0);

  await page.getByRole("checkbox", { name: "Select Bulk one" }).check();
  await page.getByRole("checkbox", { name: "Select Bulk two" }).check();
  await expect(page.getByText("2 selected")).toBeVisible();
  await page.getByRole("button", { name: "Delete selected" }).click();
  await page.getByRole("alertdialog", { name: "Delete 2 submissions?" }).getByRole("button", { name: "Delete" }).click();
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Keep me");
  const left = await apiAs<{ submissions: unknown[] }>(request, account, "GET", `/api/v1/forms/${formId}/submissions`);
  expect(left.submissions).toHaveLength(1);
});

test("export downloads the current view as a CSV or JSON file, filters applied", async ({ signedIn: page, request, account }) => {
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Alpha Export", email: "alpha@example.com" });
  await send(request, source, { name: "Beta Export", email: "beta@example.com" });
  await send(request, source, { name: "Gamma Other", email: "gamma@example.com" });
  const { formId } = await getSubmission(request, account, first.submissionId);
  await page.goto(`/forms/${formId}`);
  await expect(rows(page)).toHaveCount(3);

  const download = async (name: string) => {
    const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
  };
  const all = await download("Export CSV");
  expect(all.name).toMatch(/^contact-form-submissions-\d{4}-\d{2}-\d{2}\.csv$/);
  expect(all.text.trim().split("\r\n")).toHaveLength(4); // the header and three rows

  // The search index follows the table stream within seconds.
  const indexed = async () =>
    (await apiAs<{ submissions: unknown[] }>(request, account, "GET", `/api/v1/forms/${formId}/submissions?q=export`)).submissions
      .length;
  await expect.poll(indexed).toBe(2);
  await page.getByLabel("Search").fill("export");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(rows(page)).toHaveCount(2);
  const csv = await download("Export CSV");
  const lines = csv.text.trim().split("\r\n");
  expect(lines).toHaveLength(3);
  expect(csv.text).toContain("Alpha Export");
  expect(csv.text).toContain("Beta Export");
  expect(csv.text).not.toContain("Gamma Other");

  const json = await download("Export JSON");
  expect(json.name).toMatch(/^contact-form-submissions-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = JSON.parse(json.text) as { submissions: { data: { name: string } }[] };
  expect(exported.submissions.map((s) => s.data.name)).toEqual(["Beta Export", "Alpha Export"]);
});
