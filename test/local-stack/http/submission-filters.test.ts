import { BatchWriteCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { newId } from "../../../lib/ids";
import { backfillFilterEntries } from "../../../lib/store/filter-backfill";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { agencyOwner, createKey } from "../../support/api-keys";
import { createHook, formOfHook, makeSubmission, minutesAgo, putSubmissions, submitTo } from "../../support/submissions";
import { setTriage } from "../../support/triage";
import { bookkeepingBarrier } from "../pipeline/support/barrier";

/**
 * The inbox's triage filters (docs/api.md, "Filtering by status, owner, tag and unread") with the
 * whole local stack: submissions are stored, their triage attributes written the way the triage
 * routes write them (one UpdateItem), the stream follower's bookkeeper keeps the filter entries,
 * and the list reads them. Each check runs after a bookkeeping barrier, so the entries are there.
 */

const list = async (account: Account | string, form: string, query: string) => {
  const token = typeof account === "string" ? account : account.token;
  return api("GET", `/api/v1/forms/${form}/submissions?${query}`, { token });
};
const ids = async (account: Account | string, form: string, query: string) => {
  const res = await list(account, form, query);
  expect([res.status, res.text.slice(0, 300)]).toEqual([200, expect.any(String)]);
  return (res.body.data.submissions as { id: string }[]).map((s) => s.id);
};

let owner: Account;
let member: Account;
let siteId: string;
let formId: string;
const tagA = newId("tag");
const tagB = newId("tag");
/** Submission ids, newest first as the inbox lists them: s[0] is 1 minute old, s[7] 8 minutes. */
const s: string[] = [];
let spamId: string;
/** The one intake stored (the newest: new, nobody's). */
let first: string;

async function entriesOf(facet: string, form = formId): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.viewPartition(form, facet) },
      ScanIndexForward: false,
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).map((item) => String(item.submissionId));
}

beforeAll(async () => {
  owner = await agencyOwner("filters");
  member = await addMember(owner, "member", "filters-member");
  siteId = await createSite(owner);
  const hook = await createHook(owner, siteId);
  first = (await submitTo(hook, { email: "first@example.com" })).submissionId;
  formId = await formOfHook(owner, siteId, hook);
  const form = { id: formId, orgId: owner.orgId, siteId };
  const made = Array.from({ length: 8 }, (_, i) =>
    makeSubmission(form, { createdAt: minutesAgo(i + 1), data: { name: `Lead ${i}` } }),
  );
  const spam = makeSubmission(form, {
    createdAt: minutesAgo(4.5),
    data: { name: "Spam" },
    spam: { score: 90, isSpam: true, signals: [] },
  });
  spamId = spam.id;
  await putSubmissions([...made, spam]);
  s.push(...made.map((m) => m.id));
  // s0 contacted, owner's, tag A · s1 contacted, member's · s2 qualified, nobody's, tags A B
  // s3 new, owner's, tag B · s4..s7 new, nobody's · spam: contacted, owner's, tag A (in no filter)
  await Promise.all([
    setTriage(s[0] as string, { status: "contacted", ownerId: owner.userId, tags: [tagA] }),
    setTriage(s[1] as string, { status: "contacted", ownerId: member.userId }),
    setTriage(s[2] as string, { status: "qualified", tags: [tagA, tagB] }),
    setTriage(s[3] as string, { ownerId: owner.userId, tags: [tagB] }),
    setTriage(spamId, { status: "contacted", ownerId: owner.userId, tags: [tagA] }),
  ]);
  await bookkeepingBarrier();
}, 60_000);

describe("each filter alone lists the inbox submissions it names, newest first", () => {
  test("status", async () => {
    expect(await ids(owner, formId, "status=contacted")).toEqual([s[0], s[1]]);
    expect(await ids(owner, formId, "status=qualified")).toEqual([s[2]]);
    expect(await ids(owner, formId, "status=won")).toEqual([]);
    // New: never touched (s4..s7, and the one intake stored) and set back to nothing.
    expect(await ids(owner, formId, "status=new")).toEqual([first, s[3], s[4], s[5], s[6], s[7]]);
  });

  test("owner: me, none, a member's id", async () => {
    expect(await ids(owner, formId, "owner=me")).toEqual([s[0], s[3]]);
    expect(await ids(member, formId, "owner=me")).toEqual([s[1]]);
    expect(await ids(owner, formId, `owner=${member.userId}`)).toEqual([s[1]]);
    expect(await ids(owner, formId, "owner=none")).toEqual([first, s[2], s[4], s[5], s[6], s[7]]);
  });

  test("tag", async () => {
    expect(await ids(owner, formId, `tag=${tagA}`)).toEqual([s[0], s[2]]);
    expect(await ids(owner, formId, `tag=${tagB}`)).toEqual([s[2], s[3]]);
  });

  test("the filter entries are the partitions the design names; spam has none", async () => {
    expect(await entriesOf(`S=contacted&O=${owner.userId}&T=${tagA}`)).toEqual([s[0]]);
    expect(await entriesOf(`O=none&T=${tagB}`)).toEqual([s[2]]);
    expect(await entriesOf(`T=${tagA}`)).toEqual([s[0], s[2]]);
  });
});

describe("filters combine, with each other and with the date range", () => {
  test("status and owner, owner and tag, all three", async () => {
    expect(await ids(owner, formId, "status=contacted&owner=me")).toEqual([s[0]]);
    expect(await ids(owner, formId, `owner=none&tag=${tagB}`)).toEqual([s[2]]);
    expect(await ids(owner, formId, `status=new&owner=me&tag=${tagB}`)).toEqual([s[3]]);
    expect(await ids(owner, formId, `status=contacted&owner=me&tag=${tagB}`)).toEqual([]);
  });

  test("from/to are the entries' key range", async () => {
    const from = encodeURIComponent(minutesAgo(6.5));
    const to = encodeURIComponent(minutesAgo(2.5));
    expect(await ids(owner, formId, `owner=none&from=${from}&to=${to}`)).toEqual([s[2], s[4], s[5]]);
    expect(await ids(owner, formId, `status=new&to=${to}`)).toEqual([s[3], s[4], s[5], s[6], s[7]]);
  });

  test("a page at a time, with a cursor, to the end", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 6; page++) {
      const res = await list(owner, formId, `owner=none&limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.data.submissions.map((x: { id: string }) => x.id));
      cursor = res.body.data.nextCursor;
      if (!cursor) break;
    }
    expect(cursor).toBeNull();
    expect(seen).toEqual([first, s[2], s[4], s[5], s[6], s[7]]);
  });

  test("a cursor of another range or a forged one is 400 INVALID_CURSOR", async () => {
    const first = await list(owner, formId, "owner=none&limit=1");
    const cursor = first.body.data.nextCursor as string;
    // The cursor is newer than this range's end.
    const to = encodeURIComponent(minutesAgo(5));
    const res = await list(owner, formId, `owner=none&to=${to}&cursor=${cursor}`);
    expect([res.status, res.body.error?.code]).toEqual([400, "INVALID_CURSOR"]);
    const forged = await list(owner, formId, "owner=none&cursor=bm90LWpzb24");
    expect([forged.status, forged.body.error?.code]).toEqual([400, "INVALID_CURSOR"]);
  });
});

describe("a change moves a submission between filters", () => {
  test("a status change, an owner change and a removed tag move it at once", async () => {
    const id = s[5] as string;
    await setTriage(id, { status: "won", ownerId: member.userId, tags: [tagB] });
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=won")).toEqual([id]);
    expect(await ids(owner, formId, "status=new")).not.toContain(id);
    expect(await ids(member, formId, "owner=me")).toEqual([s[1], id]);
    expect(await ids(owner, formId, `tag=${tagB}`)).toEqual([s[2], s[3], id]);
    await setTriage(id, { status: "lost", ownerId: null, tags: null });
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=won")).toEqual([]);
    expect(await ids(owner, formId, "status=lost")).toEqual([id]);
    expect(await ids(owner, formId, `tag=${tagB}`)).toEqual([s[2], s[3]]);
    expect(await entriesOf(`S=won&O=${member.userId}`)).toEqual([]);
  });

  test("through the triage route itself (PATCH): the status and owner filters and the counts follow", async () => {
    const id = s[4] as string;
    const res = await api("PATCH", `/api/v1/submissions/${id}`, {
      token: owner.token,
      body: { status: "qualified", ownerId: owner.userId },
    });
    expect(res.status).toBe(200);
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=qualified&owner=me")).toEqual([id]);
    expect(await ids(owner, formId, "status=new")).not.toContain(id);
    const back = await api("PATCH", `/api/v1/submissions/${id}`, { token: owner.token, body: { status: "new", ownerId: null } });
    expect(back.status).toBe(200);
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=qualified&owner=me")).toEqual([]);
    expect(await ids(owner, formId, "status=new")).toContain(id);
  });

  test("flagged as spam it leaves every filter; unflagged it comes back", async () => {
    const id = s[0] as string;
    const flag = await api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam: true } });
    expect(flag.status).toBe(200);
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=contacted")).toEqual([s[1]]);
    expect(await entriesOf(`T=${tagA}`)).toEqual([s[2]]);
    await api("PUT", `/api/v1/submissions/${id}`, { token: owner.token, body: { isSpam: false } });
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "status=contacted")).toEqual([s[0], s[1]]);
  });

  test("a deleted submission is gone from its filters, its entries with it; an expired one is not listed", async () => {
    const id = s[7] as string;
    expect((await api("DELETE", `/api/v1/submissions/${id}`, { token: owner.token })).status).toBe(200);
    expect(await ids(owner, formId, "owner=none")).not.toContain(id);
    await bookkeepingBarrier();
    expect(await entriesOf("O=none")).not.toContain(id);
    // Expired (its ttl passed; DynamoDB deletes it later): the entries go, and the list skips it meanwhile.
    const expired = s[6] as string;
    await setTriage(expired, { ttl: Math.floor(Date.now() / 1000) - 5 });
    expect(await ids(owner, formId, "owner=none")).not.toContain(expired);
    await bookkeepingBarrier();
    expect(await entriesOf("O=none")).not.toContain(expired);
  });

  test("a retention re-dating rewrites the entries with the new ttl", async () => {
    const id = s[4] as string;
    const ttl = Math.floor(Date.now() / 1000) + 86_400;
    await setTriage(id, { ttl });
    await bookkeepingBarrier();
    const out = await db().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": keys.viewPartition(formId, "S=new&O=none") },
        ConsistentRead: true,
      }),
    );
    expect(out.Items?.find((i) => i.submissionId === id)?.ttl).toBe(ttl);
  });
});

describe("submissions stored before the filters existed (npm run backfill:filters)", () => {
  test("have no entries until the backfill puts them; then every filter lists them, and a second run changes nothing", async () => {
    const hook = await createHook(owner, siteId);
    const older = (await submitTo(hook, { email: "older@example.com" })).submissionId;
    const form = await formOfHook(owner, siteId, hook);
    const triaged = makeSubmission({ id: form, orgId: owner.orgId, siteId }, { createdAt: minutesAgo(1), data: { name: "Old" } });
    await putSubmissions([triaged]);
    await setTriage(triaged.id, { status: "won", tags: [tagA] });
    await bookkeepingBarrier();
    const tagged = [`T=${tagA}`, `S=won&T=${tagA}`, `O=none&T=${tagA}`, `S=won&O=none&T=${tagA}`];
    const facets = ["S=new", "O=none", "S=new&O=none", "S=won", "S=won&O=none", ...tagged];
    const before = await Promise.all(facets.map((f) => entriesOf(f, form)));
    // The one intake stored: new, nobody's (3 entries); the other: won, nobody's, tag A (7).
    expect(before.flat().sort()).toEqual([...Array(3).fill(older), ...Array(7).fill(triaged.id)].sort());
    // As a deployment from before the filter entries has them: the submissions, and no filter entry.
    const olderItem = (await api("GET", `/api/v1/submissions/${older}`, { token: owner.token })).body.data.submission;
    const createdAt: Record<string, string> = { [older]: olderItem.createdAt, [triaged.id]: triaged.createdAt };
    await db().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: facets.flatMap((facet, i) =>
            (before[i] ?? []).map((id) => ({ DeleteRequest: { Key: keys.viewEntry(form, facet, createdAt[id] as string, id) } })),
          ),
        },
      }),
    );
    expect(await ids(owner, form, "status=new")).toEqual([]);
    expect(await ids(owner, form, `tag=${tagA}`)).toEqual([]);

    const done = await backfillFilterEntries({ formId: form });
    expect([done.submissions, done.entries]).toEqual([2, 10]);
    expect(await ids(owner, form, "status=new")).toEqual([older]);
    expect(await ids(owner, form, "owner=none")).toEqual([older, triaged.id]);
    expect(await ids(owner, form, `status=won&tag=${tagA}`)).toEqual([triaged.id]);
    const again = await backfillFilterEntries({ formId: form });
    expect(again.entries).toBe(10);
    expect((await Promise.all(facets.map((f) => entriesOf(f, form)))).flat().sort()).toEqual(before.flat().sort());
  });
});

describe("what a filter refuses", () => {
  test("with spam=true or all: 400 VALIDATION_ERROR", async () => {
    for (const spam of ["true", "all"]) {
      const res = await list(owner, formId, `status=new&spam=${spam}`);
      expect([res.status, res.body.error?.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
    expect((await list(owner, formId, "status=new&spam=false")).status).toBe(200);
  });

  test("an unknown status, a malformed owner or tag: 400", async () => {
    for (const query of ["status=done", "owner=bob", `tag=${owner.userId}`, "unread=yes"]) {
      const res = await list(owner, formId, query);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, "VALIDATION_ERROR"]);
    }
  });

  test("another organization's form is 404, filtered or not", async () => {
    const stranger = await signupOwner("filters-stranger");
    for (const query of ["status=new", "owner=me", "unread=true", ""]) {
      const res = await list(stranger, formId, query);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 404, "NOT_FOUND"]);
    }
  });

  test("an API key filters by status, a member's id and tag; `owner=me` and `unread` are 400; its `unread` is null", async () => {
    const key = await createKey(owner, { name: "CRM", permissions: ["submissions.view"] });
    expect(await ids(key.secretKey, formId, `owner=${owner.userId}`)).toEqual([s[0], s[3]]);
    for (const query of ["owner=me", "unread=true"]) {
      const res = await list(key.secretKey, formId, query);
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, "VALIDATION_ERROR"]);
    }
    const plain = await list(key.secretKey, formId, "limit=1");
    expect(plain.body.data.submissions[0].unread).toBeNull();
  });

  test("with a search: the search's page, thinned to what the filters pass", async () => {
    const form = { id: formId, orgId: owner.orgId, siteId };
    const [a, b] = [
      makeSubmission(form, { data: { email: "pat@example.com" } }),
      makeSubmission(form, { data: { email: "pat@example.com" } }),
    ];
    await putSubmissions([a, b] as never);
    await setTriage((a as { id: string }).id, { status: "qualified" });
    await bookkeepingBarrier();
    expect(await ids(owner, formId, "q=pat%40example.com&status=qualified")).toEqual([(a as { id: string }).id]);
    expect(await ids(owner, formId, "q=pat%40example.com&status=new")).toEqual([(b as { id: string }).id]);
    // A plain search does not read the member's read state (its bar holds): `unread` is null;
    // with a triage filter it reads it and answers each submission's.
    const plain = await list(owner, formId, "q=pat%40example.com");
    expect(plain.body.data.submissions.map((s: { unread: unknown }) => s.unread)).toEqual([null, null]);
    const filtered = await list(owner, formId, "q=pat%40example.com&status=new");
    expect(filtered.body.data.submissions.map((s: { unread: unknown }) => s.unread)).toEqual([true]);
  });
});

describe("status counts on the form", () => {
  test("the form answers its inbox per status, spam left out, exact through changes", async () => {
    await bookkeepingBarrier();
    const res = await api("GET", `/api/v1/forms/${formId}`, { token: owner.token });
    const { submissionCount, counts } = res.body.data.form;
    const statuses = counts.statuses as Record<string, number>;
    expect(Object.values(statuses).reduce((a, b) => a + b, 0)).toBe(submissionCount);
    // Contacted s0 s1, qualified s2 and the searched one, lost s5; spam (contacted) not counted.
    expect({ ...statuses, new: undefined }).toEqual({ new: undefined, contacted: 2, qualified: 2, won: 0, lost: 1 });
    const listed = await api("GET", `/api/v1/sites/${siteId}/forms`, { token: owner.token });
    expect(listed.body.data.forms.find((f: { id: string }) => f.id === formId).counts.statuses).toEqual(statuses);
  });
});
