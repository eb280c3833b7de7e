import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { REFERENCE_BLOCKS } from "../../../lib/intake/reference-numbers";
import { keys } from "../../../lib/store/keys";
import { type Account, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import {
  accepted,
  formItem,
  formSubmissions,
  inParallel,
  intakeTarget,
  linkedForm,
  postIntake,
  webhookItem,
} from "../../support/intake";

/**
 * Concurrency through the gateway. DynamoDB Local serializes transactions and never raises
 * TransactionConflict, so these prove the invariants (one form, distinct numbers, exact counts,
 * one submission per repeat) but not behaviour under the real service's conflicts: that path is
 * injected in test/local-stack/lib/intake-store.test.ts. The webhook's count is the
 * bookkeeper's, from the table stream: it settles after the answers (receivedSettles).
 */
let owner: Account;

async function siteSequence(siteId: string): Promise<number> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.siteSequence(siteId), ConsistentRead: true }));
  return Number(out.Item?.seq);
}

beforeAll(async () => {
  owner = await signupOwner("intake-concurrency");
});

test("200 parallel submissions to one webhook: all stored, every referenceId distinct, submissionCount exactly 200", async () => {
  const t = await intakeTarget("parallel", { name: "Busy form" }, owner);
  accepted(await postIntake(t.webhook, { json: { email: "warm@example.com", n: "0" } }));
  // 200 concurrent requests, 25 in flight at a time: each meets others on the same items (the
  // site's sequence, the form) without queueing past the 10 s function timeout.
  const answers = await inParallel(200, 25, (i) =>
    postIntake(t.webhook, { json: { email: `p${i}@example.com`, n: String(i + 1) } }),
  );
  const results = answers.map(accepted);
  expect(new Set(results.map((r) => r.submissionId)).size).toBe(200);
  const numbers = results.map((r) => Number(r.referenceId.split("-")[1]));
  expect(new Set(numbers).size).toBe(200);
  // 1 went to the warm-up; every other number is one the site's sequence reserved, none twice.
  // The gateway is one instance holding blocks of numbers (lib/intake/reference-numbers.ts): what
  // it has not handed out yet is at most the rest of its blocks, never a number given twice.
  const reserved = await siteSequence(t.siteId);
  expect(Math.min(...numbers)).toBe(2);
  expect(Math.max(...numbers)).toBeLessThanOrEqual(reserved);
  expect(reserved - 201).toBeLessThan(2 * REFERENCE_BLOCKS.max);
  const item = await webhookItem(t.webhook.id);
  await receivedSettles(t.webhook.id, 201);
  const stored = await formSubmissions(item?.formId);
  expect(stored).toHaveLength(201);
  expect(new Set(stored.map((s) => s.data.n)).size).toBe(201);
}, 120_000);

test("first submissions arriving together create ONE form, and their different new fields are all kept", async () => {
  const t = await intakeTarget("first-race", { name: "Racing form" }, owner);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => postIntake(t.webhook, { json: { email: `r${i}@example.com`, [`only_${i}`]: "x" } })),
  );
  const results = answers.map(accepted);
  const form = await linkedForm(t.webhook.id);
  const stored = await formSubmissions(form.id);
  expect(stored.map((s) => s.id).sort()).toEqual(results.map((r) => r.submissionId).sort());
  expect(new Set(stored.map((s) => s.formId))).toEqual(new Set([form.id]));
  expect(Object.keys(form.fields).sort()).toEqual(["email", ...Array.from({ length: 20 }, (_, i) => `only_${i}`)].sort());
  // Every answer names the fields its submission filled.
  for (const [i, r] of results.entries()) expect(r.fieldsMapped.sort()).toEqual(["email", `only_${i}`].sort());
  await receivedSettles(t.webhook.id, 20);
}, 60_000);

test("a form in use keeps every field that concurrent submissions add", async () => {
  const t = await intakeTarget("field-race", { name: "Evolving form" }, owner);
  accepted(await postIntake(t.webhook, { json: { email: "first@example.com" } }));
  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      postIntake(t.webhook, { json: { email: `e${i}@example.com`, [`new_${i}`]: "v", shared_new: "s" } }),
    ),
  ).then((answers) => answers.map(accepted));
  const form = await formItem((await webhookItem(t.webhook.id))?.formId);
  expect(Object.keys(form?.fields ?? {}).sort()).toEqual(
    ["email", "shared_new", ...Array.from({ length: 30 }, (_, i) => `new_${i}`)].sort(),
  );
}, 60_000);

test("concurrent posts reusing one Idempotency-Key for different data: one is stored, the others are 422", async () => {
  const t = await intakeTarget("idem-reuse-race", { name: "Reused" }, owner);
  accepted(await postIntake(t.webhook, { json: { email: "warm@example.com" } }));
  const headers = { "idempotency-key": "reused-key" };
  const answers = await Promise.all(
    Array.from({ length: 8 }, (_, i) => postIntake(t.webhook, { json: { email: `n${i}@example.com` }, headers })),
  );
  const statuses = answers.map((a) => a.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 422)).toHaveLength(7);
  expect(answers.filter((a) => a.status === 422).every((a) => a.body.error.code === "IDEMPOTENCY_KEY_REUSED")).toBe(true);
  const form = await linkedForm(t.webhook.id);
  expect(await formSubmissions(form.id)).toHaveLength(2);
  await receivedSettles(t.webhook.id, 2);
}, 60_000);

test("concurrent retries with one Idempotency-Key store once and all get the first result", async () => {
  const t = await intakeTarget("idem-race", { name: "Retried" }, owner);
  accepted(await postIntake(t.webhook, { json: { email: "warm@example.com" } }));
  const headers = { "idempotency-key": "checkout-7f3a" };
  const answers = await Promise.all(
    Array.from({ length: 12 }, () => postIntake(t.webhook, { json: { email: "retry@example.com" }, headers })),
  );
  const results = answers.map(accepted);
  // Byte for byte the same answer, the first one's.
  expect(new Set(answers.map((a) => a.text)).size).toBe(1);
  expect(new Set(results.map((r) => r.submissionId)).size).toBe(1);
  const form = await linkedForm(t.webhook.id);
  expect((await formSubmissions(form.id)).filter((s) => s.data.email === "retry@example.com")).toHaveLength(1);
  await receivedSettles(t.webhook.id, 2);
}, 60_000);
