import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, jest } from "@jest/globals";
import { db } from "../../../lib/aws/dynamodb";
import { newId, sha256Hex } from "../../../lib/ids";
import { storeAndCount, storeWithRepeatMarkers } from "../../../lib/intake/storing";
import type { IntakeResult, Marker } from "../../../lib/store/intake-markers";
import { keys } from "../../../lib/store/keys";
import { moveOnSiteDay, readSiteDays } from "../../../lib/store/site-days";
import type { Submission } from "../../../lib/store/submissions";
import { storedSubmission } from "../../support/intake";

/**
 * The daily counts as intake writes them (lib/intake/storing.ts, lib/store/site-days.ts), against
 * DynamoDB Local; a failing count write is injected into the process's client, since DynamoDB
 * Local cannot be made to refuse one write.
 */

afterEach(() => {
  jest.restoreAllMocks();
});

const webhook = () => ({ id: newId("webhook"), source: "generic" as const });

function submission(overrides: Partial<Submission> = {}): Submission {
  const id = newId("submission");
  return {
    id,
    orgId: newId("organization"),
    siteId: newId("site"),
    formId: newId("form"),
    webhookId: newId("webhook"),
    referenceId: `TEST-${id.slice(-6)}`,
    data: { email: `${id}@example.com` },
    metadata: { source: "generic", userAgent: null, referer: null, ip: "10.0.0.1", droppedFiles: [], ignoredFields: [] },
    spam: { score: 0, isSpam: false, signals: [] },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

const resultOf = (s: Submission): IntakeResult => ({ submissionId: s.id, referenceId: s.referenceId, fieldsMapped: ["email"] });
const print = () => sha256Hex(newId("submission"));
const isDayWrite = (command: unknown) =>
  command instanceof UpdateCommand && String(command.input.Key?.sk).startsWith(keys.siteDaySortKey(""));

test("a stored submission counts on its UTC day: inbox with its source and form, spam apart", async () => {
  const hook = webhook();
  // 23:59:59.999 UTC belongs to that day, whatever the server's time zone.
  const late = submission({ webhookId: hook.id, createdAt: "2026-03-01T23:59:59.999Z" });
  const spam = submission({
    siteId: late.siteId,
    webhookId: hook.id,
    formId: late.formId,
    createdAt: "2026-03-01T08:00:00.000Z",
    spam: { score: 100, isSpam: true, signals: [] },
  });
  const next = submission({
    siteId: late.siteId,
    webhookId: hook.id,
    formId: late.formId,
    createdAt: "2026-03-02T00:00:00.000Z",
  });
  for (const s of [late, spam, next]) await storeAndCount(hook, s, resultOf(s), print(), Date.now());
  expect(await readSiteDays(late.siteId, "2026-03-01", "2026-03-02")).toEqual([
    { day: "2026-03-01", inbox: 1, spam: 1, bySource: { [hook.id]: 1 }, byForm: { [late.formId]: 1 } },
    { day: "2026-03-02", inbox: 1, spam: 0, bySource: { [hook.id]: 1 }, byForm: { [late.formId]: 1 } },
  ]);
  // The range is inclusive and stops at its ends.
  expect(await readSiteDays(late.siteId, "2026-03-02", "2026-03-31")).toHaveLength(1);
});

test("a repeat that loses to its marker takes its count back: one submission, one count", async () => {
  const hook = webhook();
  const first = submission({ webhookId: hook.id });
  const repeat = submission({ siteId: first.siteId, formId: first.formId, webhookId: hook.id, createdAt: first.createdAt });
  const marker: Marker = {
    key: keys.idempotency(hook.id, sha256Hex(newId("submission"))),
    ttl: Math.floor(Date.now() / 1000) + 3600,
  };
  await expect(storeWithRepeatMarkers(hook, first, resultOf(first), [marker], print(), Date.now())).resolves.toMatchObject({
    stored: true,
  });
  await expect(storeWithRepeatMarkers(hook, repeat, resultOf(repeat), [marker], print(), Date.now())).resolves.toEqual({
    stored: false,
    result: resultOf(first),
  });
  const day = first.createdAt.slice(0, 10);
  expect(await readSiteDays(first.siteId, day, day)).toEqual([
    { day, inbox: 1, spam: 0, bySource: { [hook.id]: 1 }, byForm: { [first.formId]: 1 } },
  ]);
});

test("a count that cannot be written never refuses the stored submission: it is logged and the day reads one short", async () => {
  const client = db();
  const real = client.send.bind(client) as (command: unknown) => Promise<unknown>;
  jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
    if (isDayWrite(command))
      throw Object.assign(new Error("Throughput exceeds the current capacity"), { name: "ThrottlingException" });
    return real(command);
  }) as never);
  const logged = jest.spyOn(console, "error").mockImplementation(() => undefined);
  const s = submission();
  await expect(storeAndCount(webhook(), s, resultOf(s), print(), Date.now())).resolves.toEqual({
    stored: true,
    result: resultOf(s),
  });
  jest.restoreAllMocks();
  expect((await storedSubmission(s.id))?.id).toBe(s.id);
  const day = s.createdAt.slice(0, 10);
  expect(await readSiteDays(s.siteId, day, day)).toEqual([]);
  expect(logged.mock.calls.map(([line]) => JSON.parse(String(line)).message)).toContain("daily count not updated");
});

test("a moderation of a submission from before the counters reads as 0, never below", async () => {
  const s = submission({ createdAt: "2025-12-24T10:00:00.000Z" });
  await moveOnSiteDay(s, true);
  expect(await readSiteDays(s.siteId, "2025-12-24", "2025-12-24")).toEqual([
    { day: "2025-12-24", inbox: 0, spam: 1, bySource: { [s.webhookId]: 0 }, byForm: { [s.formId]: 0 } },
  ]);
});
