import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { accepted, newWebhook, postIntake, type TestWebhook } from "../../support/intake";
import { type Receiver, receiverPath, startReceiver } from "../../support/outbound-receiver";

/**
 * The overview's failing deliveries end to end: intake → pipeline → delivery attempts to a
 * receiver on loopback that fails, then recovers. The test stack retries on a "1,1,1,1" schedule
 * (test/support/global-setup.ts): 5 attempts about a second apart.
 */

jest.setTimeout(90_000);

let receiver: Receiver;
let owner: Account;
let siteId: string;
let formId: string;
let webhook: TestWebhook;

beforeAll(async () => {
  receiver = await startReceiver();
  owner = await signupOwner("overview-failing");
  siteId = await createSite(owner, "Failing site");
  const form = await api("POST", `/api/v1/sites/${siteId}/forms`, {
    token: owner.token,
    body: { name: "Leads", status: "published" },
  });
  formId = form.body.data.form.id;
  webhook = await newWebhook(owner, siteId, { name: "Leads", formId, source: "partner_automation" });
});
afterAll(async () => {
  await receiver.close();
});

async function submit() {
  const unique = randomUUID();
  return accepted(await postIntake(webhook, { json: { email: `ada.${unique}@analytical-engines.com`, message: unique } }));
}

async function overviewWhen(done: (failing: any[]) => boolean, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  let last: any[] = [];
  while (Date.now() < deadline) {
    const res = await api("GET", `/api/v1/sites/${siteId}/overview`, { token: owner.token });
    expect(res.status).toBe(200);
    last = res.body.data.failingDeliveries;
    if (done(last)) return last;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`failing deliveries did not settle: ${JSON.stringify(last)}`);
}

test("an endpoint whose deliveries fail is listed with its last failure, and leaves the list when one is delivered", async () => {
  const path = receiverPath("overview-failing");
  const created = await api("POST", `/api/v1/forms/${formId}/outbound-webhooks`, {
    token: owner.token,
    body: { url: receiver.url(path), description: "CRM" },
  });
  expect(created.status).toBe(201);
  const endpointId = created.body.data.id as string;
  receiver.script(
    path,
    Array.from({ length: 5 }, () => ({ status: 500 })),
  );

  const first = await submit();
  const failing = await overviewWhen((f) => f.some((e) => e.status === "failed"));
  expect(failing).toEqual([
    {
      endpointId,
      formId,
      formName: "Leads",
      kind: "webhook",
      url: receiver.url(path),
      description: "CRM",
      isEnabled: true,
      disabledReason: null,
      deliveryId: expect.stringMatching(/^dlv_/),
      status: "failed",
      statusCode: 500,
      error: expect.any(String),
      failedAt: expect.any(String),
      nextAttemptAt: null,
      failingSince: expect.any(String),
    },
  ]);
  expect(receiver.requests(path)).toHaveLength(5);
  expect(failing[0].failingSince <= failing[0].failedAt).toBe(true);
  // The signing secret never travels with the list.
  expect(JSON.stringify(failing)).not.toContain("whsec_");
  expect(first.submissionId).toMatch(/^sub_/);

  // The script is used up: the receiver answers 200 and the next delivery clears the endpoint.
  await submit();
  await receiver.waitFor(path, 6);
  await overviewWhen((f) => f.length === 0);

  // Another organization never sees the list (the site is 404 to it).
  const stranger = await signupOwner("overview-failing-stranger");
  expect((await api("GET", `/api/v1/sites/${siteId}/overview`, { token: stranger.token })).status).toBe(404);
});
