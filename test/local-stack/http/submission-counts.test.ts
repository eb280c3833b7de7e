import { type Account, api, createSite, signupOwner } from "../../support/api";
import { formCountsItem, webhookCountsItem } from "../../support/bookkeeping";
import { eventually } from "../../support/eventually";
import { createHook, formOfHook, type Hook, submitTo } from "../../support/submissions";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * The counts the API answers (a form's submissionCount and spamCount, a webhook's
 * submissionCount and lastReceivedAt, the site overview's days) through every way a submission
 * comes, moves and goes, with the whole local stack: intake, the stream follower's bookkeeper,
 * moderation, delete, bulk delete, erasure and purge. Counts are eventually consistent: each
 * check passes a bookkeeping barrier (every record written before it is bookkept, however far
 * behind the shared bookkeeper is while other files seed) and then reads exactly what the API
 * answers. How soon they settle (within the 2 s docs/api.md promises for the local stack) is
 * timed on a quiet stack, among the bars: test/local-stack/perf/counts-settle.test.ts.
 */

let owner: Account;
let siteId: string;
let hook: Hook;
let formId: string;
const ids: Record<string, string> = {};
let lastCreatedAt = "";

beforeAll(async () => {
  owner = await signupOwner("counts");
  siteId = await createSite(owner);
  hook = await createHook(owner, siteId);
});

interface Expected {
  form: { submissionCount: number; spamCount: number };
  webhook: number;
  day: { inbox: number; spam: number };
}

async function answered(): Promise<Expected> {
  const [form, webhook, overview] = await Promise.all([
    api("GET", `/api/v1/forms/${formId}`, { token: owner.token }),
    api("GET", `/api/v1/sites/${siteId}/webhooks/${hook.id}`, { token: owner.token }),
    api("GET", `/api/v1/sites/${siteId}/overview`, { token: owner.token }),
  ]);
  lastCreatedAt = webhook.body.data.lastReceivedAt;
  return {
    form: { submissionCount: form.body.data.form.submissionCount, spamCount: form.body.data.form.spamCount },
    webhook: webhook.body.data.submissionCount,
    day: { inbox: overview.body.data.totals.inbox, spam: overview.body.data.totals.spam },
  };
}

/** Once every record written so far is bookkept, the API answers exactly `expected`. */
async function settles(expected: Expected): Promise<void> {
  await bookkeepingBarrier();
  expect(await answered()).toEqual(expected);
}

const moderate = (name: string, isSpam: boolean) =>
  api("PUT", `/api/v1/submissions/${ids[name]}`, { token: owner.token, body: { isSpam } });

test("intake: each accepted submission counts once, spam apart; the webhook's lastReceivedAt is the newest", async () => {
  for (const name of ["ada", "bob", "cy", "dee"]) {
    ids[name] = (await submitTo(hook, { email: `${name}@example.com`, message: `Hello from ${name}` })).submissionId;
  }
  ids.bot = (await submitTo(hook, { email: "bot@example.com", message: "Cheap", _hp: "filled by a bot" })).submissionId;
  formId = await formOfHook(owner, siteId, hook);
  await settles({ form: { submissionCount: 4, spamCount: 1 }, webhook: 5, day: { inbox: 4, spam: 1 } });
  const newest = await api("GET", `/api/v1/submissions/${ids.bot}`, { token: owner.token });
  expect(lastCreatedAt).toBe(newest.body.data.submission.createdAt);
});

test("moderation moves the form's counts and the day's, both ways, once however often it is asked", async () => {
  expect((await moderate("ada", true)).status).toBe(200);
  expect((await moderate("ada", true)).status).toBe(200);
  // Read at once: moderation moves the counts in the flag's own transaction.
  expect(await formCountsItem(formId)).toMatchObject({ inbox: 3, spam: 2 });
  await settles({ form: { submissionCount: 3, spamCount: 2 }, webhook: 5, day: { inbox: 3, spam: 2 } });
  // Two moderations racing to the same state move the counts once.
  const raced = await Promise.all([moderate("bot", false), moderate("bot", false)]);
  expect(raced.map((r) => r.status)).toEqual([200, 200]);
  await settles({ form: { submissionCount: 4, spamCount: 1 }, webhook: 5, day: { inbox: 4, spam: 1 } });
});

test("delete and bulk delete lower the form's counts (spam by its state when deleted) and the webhook's; the days keep what was received", async () => {
  expect((await api("DELETE", `/api/v1/submissions/${ids.ada}`, { token: owner.token })).status).toBe(200);
  await settles({ form: { submissionCount: 4, spamCount: 0 }, webhook: 4, day: { inbox: 4, spam: 1 } });
  const bulk = await api("POST", "/api/v1/submissions/bulk-delete", {
    token: owner.token,
    body: { ids: [ids.bob, ids.cy, ids.bob] },
  });
  expect(bulk.body.data.deleted).toBe(2);
  await settles({ form: { submissionCount: 2, spamCount: 0 }, webhook: 2, day: { inbox: 4, spam: 1 } });
});

test("erasure lowers the form's and the webhook's counts by what it deleted", async () => {
  const erased = await api("POST", `/api/v1/sites/${siteId}/submissions/erase`, {
    token: owner.token,
    body: { email: "dee@example.com" },
  });
  expect(erased.body.data).toMatchObject({ deleted: 1, complete: true });
  await settles({ form: { submissionCount: 1, spamCount: 0 }, webhook: 1, day: { inbox: 4, spam: 1 } });
});

test("a purged form's counts end as a tombstone (a record arriving later changes nothing: test/local-stack/lib/bookkeeping.test.ts)", async () => {
  ids.eve = (await submitTo(hook, { email: "eve@example.com", message: "Last one" })).submissionId;
  await settles({ form: { submissionCount: 2, spamCount: 0 }, webhook: 2, day: { inbox: 5, spam: 1 } });
  // Unlink the webhook, archive the form, delete it permanently: the purge removes its submissions.
  expect(
    (await api("PUT", `/api/v1/sites/${siteId}/webhooks/${hook.id}`, { token: owner.token, body: { formId: null } })).status,
  ).toBe(200);
  expect((await api("DELETE", `/api/v1/forms/${formId}`, { token: owner.token })).status).toBe(200);
  expect((await api("DELETE", `/api/v1/forms/${formId}?permanent=true`, { token: owner.token })).status).toBe(200);
  const tombstone = await eventually("the purge finished", async () => {
    const item = await formCountsItem(formId);
    return item?.gone === true ? item : undefined;
  });
  await bookkeepingBarrier();
  expect(await formCountsItem(formId)).toEqual(tombstone);
  expect((await api("GET", `/api/v1/forms/${formId}`, { token: owner.token })).status).toBe(404);
  // The purge lowers the webhook's count by what it deleted (its lastReceivedAt stays); the days are history.
  const webhook = await api("GET", `/api/v1/sites/${siteId}/webhooks/${hook.id}`, { token: owner.token });
  expect(webhook.body.data.submissionCount).toBe(0);
  expect(webhook.body.data.lastReceivedAt).toBe(lastCreatedAt);
  const overview = await api("GET", `/api/v1/sites/${siteId}/overview`, { token: owner.token });
  expect(overview.body.data.totals).toMatchObject({ inbox: 5, spam: 1 });
});

test("a permanently deleted webhook's counts end as a tombstone, in the deletion's own transaction", async () => {
  expect((await api("DELETE", `/api/v1/sites/${siteId}/webhooks/${hook.id}`, { token: owner.token })).status).toBe(200);
  const deleted = await api("DELETE", `/api/v1/sites/${siteId}/webhooks/${hook.id}?permanent=true`, { token: owner.token });
  expect(deleted.status).toBe(200);
  expect(await webhookCountsItem(siteId, hook.id)).toMatchObject({ gone: true, ttl: expect.any(Number) });
  expect((await webhookCountsItem(siteId, hook.id))?.submissionCount).toBeUndefined();
});
