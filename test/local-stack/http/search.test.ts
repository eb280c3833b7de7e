import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { queryKey, searchToken } from "../../../lib/search-keys";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { eventually } from "../../support/eventually";
import { createHook, formOfHook, type Hook, makeSubmission, putSubmissions, submitTo } from "../../support/submissions";

/**
 * The inbox's search (docs/api.md, "Searching submissions") with the whole local stack: intake
 * stores, the stream follower's bookkeeper keeps the form's search index, the list's `q` reads
 * it. The index is eventually consistent (within seconds), so each search waits for its answer:
 * up to 20 s, as another file's seeding can keep the shared bookkeeper busy for seconds.
 */

const SETTLE_MS = 20_000;
const listPath = (formId: string, query: string) => `/api/v1/forms/${formId}/submissions${query}`;

let owner: Account;
let siteId: string;
let hook: Hook;
let formId: string;
const sent: Record<"older" | "newer" | "other", { submissionId: string; referenceId: string }> = {} as never;

const search = async (q: string, extra = "", account = owner, form = formId) => {
  const res = await api("GET", listPath(form, `?q=${encodeURIComponent(q)}${extra}`), { token: account.token });
  expect(res.status).toBe(200);
  return {
    ids: (res.body.data.submissions as { id: string }[]).map((s) => s.id),
    nextCursor: res.body.data.nextCursor as string | null,
  };
};

/** Waits for a search to answer `expected` (the index follows the stream), then answers it. */
const finds = (q: string, expected: string[], extra = "") =>
  eventually(
    `?q=${q}${extra} → ${expected.join(", ")}`,
    async () => JSON.stringify((await search(q, extra)).ids) === JSON.stringify(expected),
    { timeoutMs: SETTLE_MS, intervalMs: 50 },
  );

/** The entries the index holds for a query's key in a form (read straight from the table). */
async function entries(form: string, q: string): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.searchPartition(form, searchToken(queryKey(q) as string)) },
    }),
  );
  return (out.Items ?? []).map((item) => String(item.submissionId));
}

beforeAll(async () => {
  owner = await signupOwner("search");
  siteId = await createSite(owner);
  hook = await createHook(owner, siteId);
  sent.older = await submitTo(hook, {
    full_name: "José da Silva",
    email: "Jose.Silva@Example.com",
    phone: "+44 20 7946 0000",
    company: "Acme Ltd",
    message: "Please send me a quote for the blue widgets.",
  });
  sent.newer = await submitTo(hook, { first_name: "Maria", last_name: "Silva", email: "maria@example.org" });
  sent.other = await submitTo(hook, { name: "Bob Jones", email: "bob@example.net", telephone: "020 7946 1111" });
  formId = await formOfHook(owner, siteId, hook);
});

describe("finds a submission by what a person would type", () => {
  test.each([
    ["its email, in any case, with spaces around", "  JOSE.SILVA@example.COM "],
    ["its phone number in the international form", "+44 20 7946 0000"],
    ["its phone number in the national form", "020 7946 0000"],
    ["its phone number with brackets and dashes", "(020) 7946-0000"],
    ["its company, in any case", "ACME LTD"],
    ["its whole name, without the accent", "Jose da Silva"],
  ])("%s", async (_what, q) => {
    await finds(q, [sent.older.submissionId]);
  });

  test("its reference, in any case", async () => {
    await finds(sent.newer.referenceId.toLowerCase(), [sent.newer.submissionId]);
  });

  test("a word of a name finds every submission holding it, newest first, a page at a time", async () => {
    await finds("silva", [sent.newer.submissionId, sent.older.submissionId]);
    const first = await search("silva", "&limit=1");
    expect(first.ids).toEqual([sent.newer.submissionId]);
    const second = await search("silva", `&limit=1&cursor=${first.nextCursor}`);
    expect(second.ids).toEqual([sent.older.submissionId]);
    // The second entry was the partition's last: DynamoDB may still say there is more (an empty page ends it).
    if (second.nextCursor) expect((await search("silva", `&limit=1&cursor=${second.nextCursor}`)).ids).toEqual([]);
  });

  test("first and last name fields together", async () => {
    await finds("Maria Silva", [sent.newer.submissionId]);
  });

  test("not by a part of a value, nor by a word of a message: search is by whole keys", async () => {
    await finds("silva", [sent.newer.submissionId, sent.older.submissionId]); // the index has caught up
    expect((await search("jose.silva")).ids).toEqual([]);
    expect((await search("widgets")).ids).toEqual([]);
    expect((await search("7946")).ids).toEqual([]);
  });
});

describe("filters and ranges apply to the index's answers", () => {
  test("the date range is the entries' key range", async () => {
    await finds("silva", [sent.newer.submissionId, sent.older.submissionId]);
    const newer = await api("GET", `/api/v1/submissions/${sent.newer.submissionId}`, { token: owner.token });
    const from = encodeURIComponent(newer.body.data.submission.createdAt);
    expect((await search("silva", `&from=${from}`)).ids).toEqual([sent.newer.submissionId]);
    expect((await search("silva", `&to=${from}`)).ids).toEqual([sent.newer.submissionId, sent.older.submissionId]);
  });

  test("spam is left out unless asked for", async () => {
    const form = { id: formId, orgId: owner.orgId, siteId };
    const spam = makeSubmission(form, {
      data: { email: "jose.silva@example.com", message: "buy now" },
      spam: { score: 90, isSpam: true, signals: [] },
    });
    await putSubmissions([spam]);
    await finds("jose.silva@example.com", [spam.id, sent.older.submissionId], "&spam=all");
    expect((await search("jose.silva@example.com")).ids).toEqual([sent.older.submissionId]);
    expect((await search("jose.silva@example.com", "&spam=true")).ids).toEqual([spam.id]);
  });
});

test("a deleted submission is no longer found, and its entries are gone", async () => {
  const hookB = await createHook(owner, siteId, { name: "Deletions" });
  const gone = await submitTo(hookB, { name: "Gone Person", email: "gone@example.com", company: "Vanishing Co" });
  const form = await formOfHook(owner, siteId, hookB);
  await eventually("indexed", async () => (await entries(form, "gone@example.com")).length === 1, { timeoutMs: SETTLE_MS });
  expect((await search("vanishing co", "", owner, form)).ids).toEqual([gone.submissionId]);
  const res = await api("DELETE", `/api/v1/submissions/${gone.submissionId}`, { token: owner.token });
  expect(res.status).toBe(200);
  expect((await search("gone@example.com", "", owner, form)).ids).toEqual([]);
  await eventually(
    "entries deleted",
    async () => {
      const left = await Promise.all(
        ["gone@example.com", "vanishing co", "gone person", "gone", "person"].map((q) => entries(form, q)),
      );
      return left.flat().length === 0;
    },
    { timeoutMs: SETTLE_MS },
  );
});

test("another organization's submissions are never found, and its form is 404", async () => {
  const stranger = await signupOwner("search-stranger");
  const theirSite = await createSite(stranger);
  const theirHook = await createHook(stranger, theirSite);
  const theirs = await submitTo(theirHook, { name: "José da Silva", email: "jose.silva@example.com" });
  const theirForm = await formOfHook(stranger, theirSite, theirHook);
  await eventually(
    "their index",
    async () => (await entries(theirForm, "jose.silva@example.com")).includes(theirs.submissionId),
    {
      timeoutMs: SETTLE_MS,
    },
  );
  expect((await search("jose.silva@example.com")).ids).not.toContain(theirs.submissionId);
  const res = await api("GET", listPath(theirForm, "?q=jose.silva%40example.com"), { token: owner.token });
  expect([res.status, res.body.error.code]).toEqual([404, "NOT_FOUND"]);
});

test.each([["q=---"], ["q=%20!%20"]])("GET ?%s (nothing to search) is 400 VALIDATION_ERROR on q", async (query) => {
  const res = await api("GET", listPath(formId, `?${query}`), { token: owner.token });
  expect([res.status, res.body.error.code, res.body.error.details?.[0]?.path]).toEqual([400, "VALIDATION_ERROR", "q"]);
});
