import type { DeliveryStatus } from "../../lib/store/outbound-deliveries";
import { type Receiver, receiverPath, startReceiver, verifyDelivery } from "../support/outbound-receiver";
import { expectAccessibleInBothThemes } from "./support/a11y";
import { expect, test } from "./support/fixtures";
import { organizationOf, send } from "./support/inbox";
import { addEndpoint, createForm, createLinkedSource, seedDeliveries, sendTest, settled } from "./support/outbound";

/**
 * A form's outbound webhooks and their delivery log, through the real local stack:
 * deliveries go through the queue and the consumer to a receiver on loopback in this worker,
 * which checks each request's Standard Webhooks signature as a real receiver would.
 */

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

test("add an endpoint (secret once), send a test event, read the log, filter failed, replay after a 410", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId } = await createForm(request, account);
  const okPath = receiverPath("e2e-ok");
  await page.goto(`/forms/${formId}/webhooks`);
  await expect(page.getByRole("heading", { name: "Outbound webhooks of Contact" })).toBeVisible();
  await expect(page.getByText("No endpoints yet.")).toBeVisible();

  // Add: the secret is shown once, with the verification code in several languages.
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(receiver.url(okPath));
  await dialog.getByLabel("Description (optional)").fill("CRM sync");
  await expect(dialog.getByLabel("New submission")).toBeChecked();
  await dialog.getByLabel("Status, owner or tags changed").check();
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const added = page.getByRole("dialog", { name: "Endpoint added" });
  const secretField = added.getByLabel("Signing secret", { exact: true });
  await expect(secretField).toHaveValue(/^whsec_[A-Za-z0-9+/]{43}=$/);
  const secret = await secretField.inputValue();
  await expect(added.getByLabel("Node (standardwebhooks) code", { exact: true })).toHaveValue(
    /new Webhook\(process\.env\.INLET_SIGNING_SECRET\)/,
  );
  await added.getByRole("tab", { name: "Python (standardwebhooks)" }).click();
  await expect(added.getByLabel("Python (standardwebhooks) code", { exact: true })).toHaveValue(
    /from standardwebhooks\.webhooks import Webhook/,
  );
  await added.getByRole("button", { name: "Done" }).click();
  await expect(added).toBeHidden();
  expect(await page.content()).not.toContain(secret.slice(6));
  await page.reload();
  const row = page.getByRole("listitem", { name: "CRM sync" });
  await expect(row).toBeVisible();
  expect(await page.content()).not.toContain(secret.slice(6));
  await expect(row.getByText("Nothing sent yet")).toBeVisible();
  await expect(row.getByText("Events: New submission · Status, owner or tags changed")).toBeVisible();

  // A test event arrives signed with that secret, and its delivery settles in the row.
  await row.getByRole("button", { name: "Send test event" }).click();
  await expect(row.getByRole("status")).toContainText("Test event sent");
  const [request1] = await receiver.waitFor(okPath, 1);
  const event = verifyDelivery(secret, request1 as never);
  expect(event).toMatchObject({ type: "webhook.test", data: { test: true, formId } });
  await expect(row.getByText(/Last delivery: Delivered HTTP 200/)).toBeVisible();

  // The delivery log: status, the attempt with time, response code and latency.
  await row.getByRole("link", { name: "Delivery log of CRM sync" }).click();
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  const delivered = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(delivered).toHaveCount(1);
  await expect(delivered.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(delivered.getByText("Test event")).toBeVisible();
  const attempt = delivered
    .getByRole("table", { name: /Attempts of delivery/ })
    .getByRole("row")
    .nth(1);
  await expect(attempt.getByRole("cell").nth(0)).toHaveText("1");
  await expect(attempt.getByRole("cell").nth(2)).toHaveText("HTTP 200");
  await expect(attempt.getByRole("cell").nth(3)).toHaveText(/^\d+ ms$/);
  await expect(delivered.getByText(`webhook-id ${request1?.headers["webhook-id"]}`)).toBeVisible();

  // Failed only: in the URL, and nothing failed here.
  await page.getByLabel("Show").selectOption({ label: "Failed only" });
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByText("No failed deliveries.")).toBeVisible();

  // A receiver that answers 410: the delivery fails and the endpoint is disabled, with the reason shown.
  const gonePath = receiverPath("e2e-gone");
  receiver.script(gonePath, [{ status: 410 }]);
  await page.getByRole("link", { name: /Back to the outbound webhooks/ }).click();
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("dialog", { name: "Add an endpoint" }).getByLabel("Endpoint URL").fill(receiver.url(gonePath));
  await page.getByRole("dialog", { name: "Add an endpoint" }).getByLabel("Description (optional)").fill("Old automation");
  await page.getByRole("dialog", { name: "Add an endpoint" }).getByRole("button", { name: "Add endpoint" }).click();
  await page.getByRole("dialog", { name: "Endpoint added" }).getByRole("button", { name: "Done" }).click();
  const gone = page.getByRole("listitem", { name: "Old automation" });
  await gone.getByRole("button", { name: "Send test event" }).click();
  await expect(gone.getByText(/Inlet disabled it on .*: The receiver answered 410 Gone/)).toBeVisible();
  await expect(gone.getByText("Disabled", { exact: true })).toBeVisible();
  await expect(gone.getByRole("button", { name: "Send test event" })).toBeDisabled();

  // Its log, failed only: the delivery with its 410; a replay while disabled is refused in words.
  await gone.getByRole("link", { name: "Delivery log of Old automation" }).click();
  await page.getByLabel("Show").selectOption({ label: "Failed only" });
  await expect(page).toHaveURL(/status=failed/);
  const failed = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(failed).toHaveCount(1);
  await expect(failed.getByText("Failed", { exact: true })).toBeVisible();
  await expect(failed.getByRole("cell", { name: "HTTP 410" })).toBeVisible();
  await failed.getByRole("button", { name: /^Replay/ }).click();
  await expect(failed.getByRole("alert")).toHaveText("This endpoint is disabled. Enable it first, then try again.");

  // Enabled again, the replay goes out and is delivered: the failed filter empties.
  await page.getByRole("link", { name: /Back to the outbound webhooks/ }).click();
  await gone.getByRole("button", { name: "Enable" }).click();
  await expect(gone.getByText("Enabled", { exact: true })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/status=failed/);
  await page
    .getByRole("list", { name: "Deliveries" })
    .getByRole("listitem")
    .getByRole("button", { name: /^Replay/ })
    .click();
  await expect(page.getByText("No failed deliveries.")).toBeVisible({ timeout: 20_000 });
  await page.getByLabel("Show").selectOption({ label: "All deliveries" });
  const replayed = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(replayed.getByText("Delivered", { exact: true })).toBeVisible();
  const rows = replayed.getByRole("table").getByRole("row");
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(2).getByRole("cell").nth(0)).toHaveText("2 (replay)");
  await expect(rows.nth(2).getByRole("cell").nth(2)).toHaveText("HTTP 200");
  expect(receiver.requests(gonePath)).toHaveLength(2);
});

test("a list read torn between a 410's two writes is read again: the endpoint shows disabled", async ({
  signedIn: page,
  request,
  account,
}) => {
  // The attempt runner disables the endpoint, then records its delivery failed. A list read that
  // falls between the two (the endpoint read before the first, the delivery after the second) is
  // rare on demand, so the browser is handed that read: the first answer showing the delivery
  // settled has its endpoint put back as it was before the disable. Only the next read may fix it.
  const { formId } = await createForm(request, account);
  const gonePath = receiverPath("e2e-torn");
  receiver.script(gonePath, [{ status: 410 }]);
  await addEndpoint(request, account, formId, receiver.url(gonePath), "Torn read");
  let torn = false;
  await page.route(`**/api/v1/forms/${formId}/outbound-webhooks`, async (route) => {
    if (route.request().method() !== "GET" || torn) return route.continue();
    const response = await route.fetch();
    const body = (await response.json()) as {
      data: {
        outboundWebhooks: {
          isEnabled: boolean;
          disabledReason: string | null;
          disabledAt: string | null;
          lastDelivery: { status: string } | null;
        }[];
      };
    };
    const [endpoint] = body.data.outboundWebhooks;
    if (endpoint?.lastDelivery?.status === "failed") {
      torn = true;
      Object.assign(endpoint, { isEnabled: true, disabledReason: null, disabledAt: null });
    }
    return route.fulfill({ response, json: body });
  });
  await page.goto(`/forms/${formId}/webhooks`);
  const row = page.getByRole("listitem", { name: "Torn read" });
  await row.getByRole("button", { name: "Send test event" }).click();
  await expect.poll(() => torn, { timeout: 20_000 }).toBe(true);
  await expect(row.getByText(/Inlet disabled it on .*: The receiver answered 410 Gone/)).toBeVisible();
  await expect(row.getByText("Disabled", { exact: true })).toBeVisible();
});

test("the SSRF guard's refusal shows beside the URL, in words; nothing is added", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId } = await createForm(request, account);
  await page.goto(`/forms/${formId}/webhooks`);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add an endpoint" });
  const url = dialog.getByLabel("Endpoint URL");
  // `.invalid` never resolves (RFC 2606): the guard refuses a host it cannot resolve, even locally.
  await url.fill("https://crm.inlet-e2e.invalid/hooks");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toHaveAccessibleDescription(/Inlet sends only to public internet addresses/);
  await url.fill("ftp://files.example.com/");
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  await expect(url).toHaveAccessibleDescription(/Inlet sends only to public internet addresses/);
  await page.keyboard.press("Escape");
  await expect(page.getByText("No endpoints yet.")).toBeVisible();
  await expect(page.getByText("0 of 10 endpoints and chat destinations used")).toBeVisible();
});

test("a submission's detail shows its deliveries, linked to the log", async ({ signedIn: page, request, account }) => {
  // A source sending to a built form: the endpoint exists before the form's first submission.
  const { siteId, formId } = await createForm(request, account);
  const source = await createLinkedSource(request, account, siteId, formId);
  const path = receiverPath("e2e-submission");
  await addEndpoint(request, account, formId, receiver.url(path), "Sales CRM");
  const lead = await send(request, source, { name: "Grace Hopper", email: "grace@example.com", message: "Please call me back" });
  await receiver.waitFor(path, 1, 30_000);

  await page.goto(`/submissions/${lead.submissionId}`);
  const section = page.getByRole("region", { name: "Outbound webhooks" });
  await expect(section.getByText("Delivered", { exact: true })).toBeVisible();
  await expect(section.getByText("Sales CRM", { exact: true })).toBeVisible();
  await expect(section.getByText(/1 attempt · last HTTP 200/)).toBeVisible();
  await section.getByRole("link", { name: "Delivery log of Sales CRM" }).click();
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  const item = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(item.getByText("Submission", { exact: true })).toBeVisible();
  await item.getByRole("link", { name: "View the submission" }).click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${lead.submissionId}$`));
});

test("a long log pages with Load more; failed only finds the failed ones among the delivered", async ({
  signedIn: page,
  request,
  account,
}) => {
  const { formId } = await createForm(request, account);
  const endpoint = await addEndpoint(request, account, formId, receiver.url(receiverPath("long-log")), "Busy CRM");
  // 40 deliveries, newest first: every fourth failed (10 of them), the rest delivered.
  const statuses = Array.from({ length: 40 }, (_, n): DeliveryStatus => (n % 4 === 3 ? "failed" : "delivered"));
  await seedDeliveries({ id: endpoint.id, formId, orgId: await organizationOf(request, account) }, statuses);

  await page.goto(`/forms/${formId}/webhooks/${endpoint.id}`);
  const items = page.getByRole("list", { name: "Deliveries" }).getByRole("listitem");
  await expect(items).toHaveCount(25);
  await page.getByRole("button", { name: "Load more" }).click();
  await expect(items).toHaveCount(40);
  await expect(page.getByRole("button", { name: "Load more" })).toBeHidden();
  // Newest first: the last one is the oldest seeded (a failure, 40 minutes ago).
  await expect(items.last().getByText("Failed", { exact: true })).toBeVisible();

  await page.getByLabel("Show").selectOption({ label: "Failed only" });
  await expect(page).toHaveURL(/status=failed/);
  await expect(items).toHaveCount(10);
  for (const item of await items.all()) await expect(item.getByText("Failed", { exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Show")).toHaveValue("failed");
  await expect(items).toHaveCount(10);
});

test.describe("accessibility", () => {
  test.use({ bypassCSP: true });

  test("the webhooks page (with the secret dialog) and the delivery log, light and dark", async ({
    signedIn: page,
    request,
    account,
  }) => {
    const { formId } = await createForm(request, account);
    const gonePath = receiverPath("a11y-gone");
    receiver.script(gonePath, [{ status: 410 }]);
    const ok = await addEndpoint(request, account, formId, receiver.url(receiverPath("a11y-ok")), "CRM sync");
    const goneEndpoint = await addEndpoint(request, account, formId, receiver.url(gonePath), null);
    await sendTest(request, account, formId, ok.id);
    await sendTest(request, account, formId, goneEndpoint.id);
    await expect.poll(() => settled(request, account, formId), { timeout: 20_000 }).toBe(true);

    await page.goto(`/forms/${formId}/webhooks`);
    await expect(page.getByText(/Inlet disabled it/)).toBeVisible();
    await expect(page.getByText(/Last delivery: Delivered/)).toBeVisible();
    await expectAccessibleInBothThemes(page, "outbound webhooks");

    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.getByLabel("Endpoint URL").fill("https://crm.inlet-e2e.invalid/hooks");
    await page.getByRole("button", { name: "Add endpoint" }).last().click();
    await expect(page.getByLabel("Endpoint URL")).toHaveAttribute("aria-invalid", "true");
    await expectAccessibleInBothThemes(page, "add endpoint with the URL refused");
    await page.getByLabel("Endpoint URL").fill(receiver.url(receiverPath("a11y-new")));
    await page.getByRole("button", { name: "Add endpoint" }).last().click();
    await expect(page.getByRole("dialog", { name: "Endpoint added" })).toBeVisible();
    await expectAccessibleInBothThemes(page, "the signing secret dialog");
    await page.getByRole("button", { name: "Done" }).click();

    await page.goto(`/forms/${formId}/webhooks/${goneEndpoint.id}`);
    await expect(page.getByRole("table")).toBeVisible();
    await expect(page.getByText("Failed", { exact: true })).toBeVisible();
    await expectAccessibleInBothThemes(page, "delivery log");
    await page.goto(`/forms/${formId}/webhooks/${ok.id}?status=failed`);
    await expect(page.getByText("No failed deliveries.")).toBeVisible();
    await expectAccessibleInBothThemes(page, "delivery log, failed only");
  });
});
