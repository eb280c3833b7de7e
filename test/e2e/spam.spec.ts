import { createSource, expect, test } from "./support/fixtures";
import { getSubmission, graded, rows, send } from "./support/inbox";

/** A form with one real lead and two spam submissions: a filled honeypot, and a script posting too fast. */
async function formWithSpam(request: import("@playwright/test").APIRequestContext, account: Parameters<typeof getSubmission>[1]) {
  const source = await createSource(request, account);
  const real = await send(request, source, { name: "Real person", email: "real@example.com" });
  const trapped = await send(request, source, { name: "Trapped bot", email: "bot@example.com", _gotcha: "filled by a bot" });
  // No Referer, a script's user agent, and posted the instant the form was shown.
  const script = await request.post(source.url, {
    data: { name: "Script bot", email: "script@example.com", _ts: String(Date.now()) },
    headers: { "x-webhook-key": source.secret, "user-agent": "python-requests/2.31" },
  });
  expect(script.status()).toBe(200);
  const { formId } = await getSubmission(request, account, real.submissionId);
  return { source, formId, real, trapped };
}

test("the spam folder shows each flagged submission's score and the reasons, in words", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId } = await formWithSpam(request, account);
  await page.goto(`/forms/${formId}`);
  await expect(rows(page)).toHaveCount(1);
  await page.getByRole("navigation", { name: "Form sections" }).getByRole("link", { name: "Spam", exact: true }).click();
  await expect(page.getByRole("heading", { name: /^Spam of/ })).toBeVisible();
  await expect(rows(page)).toHaveCount(2);

  const trapped = rows(page).filter({ hasText: "Trapped bot" });
  await expect(trapped).toContainText("Score 100 of 100");
  // Other tests post from the same address too, so "Many submissions from one address" may join in.
  await expect(trapped.getByRole("listitem")).toContainText(["Hidden trap field filled in (+100)"]);

  const script = rows(page).filter({ hasText: "Script bot" });
  await expect(script).toContainText("Score 100 of 100");
  await expect(script.getByRole("listitem")).toContainText([
    "Sent faster than a person types (+40)",
    "No page it was sent from (+30)",
    "Sent by a bot or script (+30)",
  ]);

  // The detail view says what each signal saw.
  await script.getByRole("link", { name: "Script bot" }).click();
  const score = page.getByRole("region", { name: "Spam score" });
  await expect(score.getByRole("heading")).toHaveText("Spam score: 100 of 100");
  await expect(score).toContainText("python-requests/2.31");
  await expect(score).toContainText(/Sent faster than a person types: \+40 \(submitted \d+ ms after the form was shown\)/);
});

test('"Not spam" moves a submission to the inbox and releases it; "Mark as spam" does the reverse', async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId, trapped } = await formWithSpam(request, account);
  await page.goto(`/forms/${formId}/spam`);
  await expect(rows(page)).toHaveCount(2);
  await rows(page).filter({ hasText: "Trapped bot" }).getByRole("button", { name: "Not spam" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 submission moved to the inbox" })).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole("link", { name: "Trapped bot" })).toHaveCount(0);

  const folders = page.getByRole("navigation", { name: "Form sections" });
  await folders.getByRole("link", { name: "Inbox", exact: true }).click();
  await expect(rows(page)).toHaveCount(2);
  await expect(page.getByRole("link", { name: "Trapped bot" })).toBeVisible();
  // Released into the pipeline: it is graded like any lead.
  const released = await graded(request, account, trapped.submissionId);
  expect(released.spam.isSpam).toBe(false);

  await rows(page).filter({ hasText: "Real person" }).getByRole("button", { name: "Mark as spam" }).click();
  await expect(page.getByRole("status").filter({ hasText: "1 submission moved to spam" })).toBeVisible();
  await expect(rows(page)).toHaveCount(1);
  await folders.getByRole("link", { name: "Spam", exact: true }).click();
  const marked = rows(page).filter({ hasText: "Real person" });
  await expect(marked).toContainText("Marked as spam by a person");
});

test("several flagged submissions can be released together", async ({ signedIn: page, request, account }) => {
  const { formId } = await formWithSpam(request, account);
  await page.goto(`/forms/${formId}/spam`);
  await page.getByRole("checkbox", { name: "Select Trapped bot" }).check();
  await page.getByRole("checkbox", { name: "Select Script bot" }).check();
  await page.getByRole("region", { name: "Selection actions" }).getByRole("button", { name: "Not spam" }).click();
  await expect(page.getByText("No spam.")).toBeVisible();
  await page.getByRole("navigation", { name: "Form sections" }).getByRole("link", { name: "Inbox", exact: true }).click();
  await expect(rows(page)).toHaveCount(3);
});
