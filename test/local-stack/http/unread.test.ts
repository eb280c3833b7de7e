import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId } from "../../../lib/ids";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { createHook, formOfHook, makeSubmission, minutesAgo, putSubmissions, submitTo } from "../../support/submissions";
import { setTriage } from "../../support/triage";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * Unread per member (docs/api.md, "Unread"; docs/triage.md, "Filters and unread") with the whole
 * local stack: each member's read state is one item of ranges, every listed or read submission
 * says whether the caller opened it, and `unread=true` lists only the unread ones.
 */

let owner: Account;
let member: Account;
let siteId: string;
let formId: string;
/** Newest first: s[0] is 1 minute old, s[9] 10 minutes. */
const s: string[] = [];

const listIds = async (account: Account, query: string, form = formId) => {
  const res = await api("GET", `/api/v1/forms/${form}/submissions?${query}`, { token: account.token });
  expect([res.status, res.text.slice(0, 200)]).toEqual([200, expect.any(String)]);
  return res.body.data as { submissions: { id: string; unread: boolean | null }[]; nextCursor: string | null };
};
const unreadIds = async (account: Account, extra = "") =>
  (await listIds(account, `unread=true${extra}`)).submissions.map((x) => x.id);
const read = (account: Account, id: string) => api("PUT", `/api/v1/submissions/${id}/read`, { token: account.token });
const unread = (account: Account, id: string) => api("DELETE", `/api/v1/submissions/${id}/read`, { token: account.token });
const rangesOf = async (account: Account) =>
  (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.readRanges(account.userId, formId), ConsistentRead: true }),
    )
  ).Item?.ranges as string[][] | undefined;

beforeAll(async () => {
  owner = await agencyOwner("unread");
  member = await addMember(owner, "member", "unread-member");
  siteId = await createSite(owner);
  const hook = await createHook(owner, siteId);
  // The form comes with its first submission, deleted at once: the test's are the form's only ones.
  const { submissionId } = await submitTo(hook, { name: "First" });
  formId = await formOfHook(owner, siteId, hook);
  expect((await api("DELETE", `/api/v1/submissions/${submissionId}`, { token: owner.token })).status).toBe(200);
  const form = { id: formId, orgId: owner.orgId, siteId };
  const made = Array.from({ length: 10 }, (_, i) =>
    makeSubmission(form, { createdAt: minutesAgo(i + 1), data: { name: `Lead ${i}` } }),
  );
  const spam = makeSubmission(form, {
    createdAt: minutesAgo(2.5),
    data: { name: "Spam" },
    spam: { score: 90, isSpam: true, signals: [] },
  });
  await putSubmissions([...made, spam]);
  s.push(...made.map((m) => m.id));
  await bookkeepingBarrier();
}, 60_000);

describe("each member has their own read state", () => {
  test("everything starts unread, for everyone; the submission's own page says so too", async () => {
    const page = await listIds(owner, "");
    expect(page.submissions.map((x) => x.unread)).toEqual(page.submissions.map(() => true));
    expect(await unreadIds(owner)).toEqual(s);
    const one = await api("GET", `/api/v1/submissions/${s[0]}`, { token: member.token });
    expect(one.body.data.submission.unread).toBe(true);
  });

  test("opening one marks it read for that member only; a GET alone marks nothing", async () => {
    await api("GET", `/api/v1/submissions/${s[1]}`, { token: owner.token });
    expect(await unreadIds(owner)).toContain(s[1]);
    const res = await read(owner, s[1] as string);
    expect([res.status, res.body.data]).toEqual([200, { submissionId: s[1], unread: false }]);
    expect(await unreadIds(owner)).not.toContain(s[1]);
    expect(await unreadIds(member)).toContain(s[1]);
    const page = await listIds(owner, "limit=3");
    expect(page.submissions.map((x) => [x.id, x.unread])).toEqual([
      [s[0], true],
      [s[1], false],
      [s[2], true],
    ]);
    expect((await api("GET", `/api/v1/submissions/${s[1]}`, { token: owner.token })).body.data.submission.unread).toBe(false);
    // Again: nothing changes.
    expect((await read(owner, s[1] as string)).status).toBe(200);
    expect(await rangesOf(owner)).toHaveLength(1);
  });

  test("neighbours with nothing unread between join into one range (spam between does not count)", async () => {
    // s3, then s2: adjacent (nothing between), one range; spam (2.5 min) lies between s2 and s3.
    await read(owner, s[3] as string);
    expect(await rangesOf(owner)).toHaveLength(2);
    await read(owner, s[2] as string);
    expect(await rangesOf(owner)).toHaveLength(1); // s1..s3, the spam between them inside
    await read(owner, s[6] as string);
    expect(await rangesOf(owner)).toHaveLength(2); // s4 and s5 unread between
    expect(await unreadIds(owner)).toEqual([s[0], s[4], s[5], s[7], s[8], s[9]]);
  });

  test("marking unread splits a range; the filter pages through the unread stretches with a cursor", async () => {
    const res = await unread(owner, s[2] as string);
    expect([res.status, res.body.data]).toEqual([200, { submissionId: s[2], unread: true }]);
    expect(await rangesOf(owner)).toHaveLength(3);
    const expected = [s[0], s[2], s[4], s[5], s[7], s[8], s[9]];
    expect(await unreadIds(owner)).toEqual(expected);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let i = 0; i < 10; i++) {
      const page = await listIds(owner, `unread=true&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...page.submissions.map((x) => x.id));
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(expected);
    expect(await unreadIds(owner, `&to=${encodeURIComponent(minutesAgo(4.5))}`)).toEqual([s[4], s[5], s[7], s[8], s[9]]);
  });

  test("unread combines with a filter: its partition, between the ranges", async () => {
    await setTriage(s[4] as string, { status: "contacted" });
    await setTriage(s[3] as string, { status: "contacted" });
    await bookkeepingBarrier();
    expect((await listIds(owner, "status=contacted")).submissions.map((x) => x.id)).toEqual([s[3], s[4]]);
    expect(await unreadIds(owner, "&status=contacted")).toEqual([s[4]]);
    expect(await unreadIds(member, "&status=contacted")).toEqual([s[3], s[4]]);
  });

  test("mark all read: one range for the form; newer submissions come unread", async () => {
    const res = await api("POST", `/api/v1/forms/${formId}/submissions/read`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.data.formId).toBe(formId);
    expect(await unreadIds(member)).toEqual([]);
    expect(await unreadIds(owner)).toHaveLength(7);
    const fresh = makeSubmission({ id: formId, orgId: owner.orgId, siteId }, { data: { name: "Fresh" } });
    await putSubmissions([fresh]);
    expect(await unreadIds(member)).toEqual([fresh.id]);
    expect(await rangesOf(member)).toHaveLength(1);
  });
});

describe("who may", () => {
  test("an API key: 403 SESSION_REQUIRED on the read routes, `unread: null` on what it reads", async () => {
    const key = await createKey(owner, { name: "CRM", permissions: ["submissions.view"] });
    for (const [method, path] of [
      ["PUT", `/api/v1/submissions/${s[0]}/read`],
      ["DELETE", `/api/v1/submissions/${s[0]}/read`],
      ["POST", `/api/v1/forms/${formId}/submissions/read`],
    ] as const) {
      const res = await api(method, path, { token: key.secretKey });
      expect([path, res.status, res.body.error?.code]).toEqual([path, 403, "SESSION_REQUIRED"]);
    }
    const one = await api("GET", `/api/v1/submissions/${s[0]}`, { token: key.secretKey });
    expect(one.body.data.submission.unread).toBeNull();
  });

  test("another organization's submission or form is 404", async () => {
    const stranger = await signupOwner("unread-stranger");
    for (const res of [
      await read(stranger, s[0] as string),
      await unread(stranger, s[0] as string),
      await api("POST", `/api/v1/forms/${formId}/submissions/read`, { token: stranger.token }),
      await api("GET", `/api/v1/forms/${formId}/submissions?unread=true`, { token: stranger.token }),
    ]) {
      expect([res.status, res.body.error?.code]).toEqual([404, "NOT_FOUND"]);
    }
    expect((await read(stranger, newId("submission"))).status).toBe(404);
  });
});
