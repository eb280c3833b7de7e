import { createSource, expect, test } from "./support/fixtures";
import { getSubmission, organizationOf, rows, seedSubmissions, send } from "./support/inbox";

const VOLUME = 5_000;

test(`the inbox stays responsive with ${VOLUME.toLocaleString("en")} submissions: a page at a time, never the whole form`, async ({
  signedIn: page,
  request,
  account,
}) => {
  // Seeding 5,000 items into DynamoDB Local takes about a minute on a busy 2-core machine.
  test.setTimeout(240_000);
  const source = await createSource(request, account);
  const first = await send(request, source, { name: "Newest lead", email: "newest@example.com" });
  const submission = await getSubmission(request, account, first.submissionId);
  const seedMs = await seedSubmissions(submission, await organizationOf(request, account), VOLUME - 1);

  const api: URL[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/")) api.push(url);
  });
  const started = Date.now();
  await page.goto(`/forms/${submission.formId}`);
  await expect(rows(page).first()).toContainText("Newest lead");
  const firstRowsMs = Date.now() - started;
  await expect(rows(page)).toHaveCount(50);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contact form");
  // The form is read for its header and, by the triage filters, for its counts per status: the
  // counts are one item kept from the table stream (docs/data-model.md), not a read of the
  // submissions, so neither read grows with the form; the lists below are read a page at a time.
  const formReads = api.filter((u) => u.pathname === `/api/v1/forms/${submission.formId}`);
  expect(formReads.length).toBeGreaterThan(0);
  expect(formReads.length).toBeLessThanOrEqual(2);

  const lists = () => api.filter((u) => u.pathname === `/api/v1/forms/${submission.formId}/submissions`);
  expect(lists().length).toBeGreaterThan(0);
  for (const url of lists()) {
    expect(Number(url.searchParams.get("limit")), url.search).toBeGreaterThan(0);
    expect(Number(url.searchParams.get("limit")), url.search).toBeLessThanOrEqual(100);
  }
  expect(api.filter((u) => u.pathname.endsWith("/export"))).toEqual([]);

  const before = lists().length;
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(rows(page)).toHaveCount(100);
  await expect(rows(page).last()).toContainText("Seeded lead 99");
  const more = lists().slice(before);
  expect(more.map((u) => u.searchParams.has("cursor"))).toContain(true);
  for (const url of more) expect(Number(url.searchParams.get("limit"))).toBeLessThanOrEqual(100);

  test
    .info()
    .annotations.push(
      { type: "seeded", description: `${VOLUME - 1} submissions in ${Math.round(seedMs)} ms` },
      { type: "first rows", description: `${firstRowsMs} ms from navigation` },
    );
  console.log(`inbox volume: seeded ${VOLUME - 1} in ${Math.round(seedMs)} ms; first rows after ${firstRowsMs} ms`);
  expect(firstRowsMs).toBeLessThan(5_000);
});
