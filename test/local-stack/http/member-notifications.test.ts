import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { nextDueAt } from "../../../lib/digests/schedule";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";

/** GET and PUT /v1/auth/me/notifications (docs/api.md; lib/member-notifications.ts). */

const PATH = "/api/v1/auth/me/notifications";

let owner: Account;
let siteId: string;
let contact: string;
let quote: string;

const newForm = async (account: Account, site: string, name: string) => {
  const res = await api("POST", `/api/v1/sites/${site}/forms`, { token: account.token, body: { name, status: "published" } });
  expect(res.status).toBe(201);
  return res.body.data.form.id as string;
};

const memberItem = async (account: Account) =>
  (
    await db().send(
      new GetCommand({ TableName: tableName(), Key: keys.member(account.orgId, account.userId), ConsistentRead: true }),
    )
  ).Item as Record<string, any>;

const settings = (overrides: Record<string, unknown> = {}) => ({
  timeZone: "Europe/Paris",
  digestHour: 7,
  digestWeekday: 5,
  organization: "daily",
  forms: [] as { formId: string; choice: string }[],
  ...overrides,
});

beforeAll(async () => {
  owner = await signupOwner("notify");
  siteId = await createSite(owner, "Acme");
  contact = await newForm(owner, siteId, "Contact");
  quote = await newForm(owner, siteId, "Quote");
  // The owner's address is on the quote form's list.
  const listed = await api("PUT", `/api/v1/forms/${quote}`, {
    token: owner.token,
    body: { settings: { notifyEmails: [owner.email] } },
  });
  expect(listed.status).toBe(200);
});

test("before any choice: no zone, the default time, the forms' lists decide, no digest", async () => {
  const res = await api("GET", PATH, { token: owner.token });
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual({
    timeZone: null,
    digestHour: 8,
    digestWeekday: 1,
    organization: null,
    forms: [
      { formId: contact, name: "Contact", siteId, siteName: "Acme", choice: null, effective: null, listed: false },
      { formId: quote, name: "Quote", siteId, siteName: "Acme", choice: null, effective: null, listed: true },
    ],
    formsTruncated: false,
    emailVerified: false,
    nextDigests: { daily: null, weekly: null },
  });
});

test("saving: the zone, the time, the organization's choice and a form's own; the digests are scheduled on the member's clock", async () => {
  const before = Date.now();
  const res = await api("PUT", PATH, {
    token: owner.token,
    body: settings({ timeZone: "europe/paris", forms: [{ formId: quote, choice: "weekly" }] }),
  });
  expect(res.status).toBe(200);
  const data = res.body.data;
  expect(data).toMatchObject({ timeZone: "Europe/Paris", digestHour: 7, digestWeekday: 5, organization: "daily" });
  expect(
    data.forms.map((f: { formId: string; choice: string | null; effective: string }) => [f.formId, f.choice, f.effective]),
  ).toEqual([
    [contact, null, "daily"],
    [quote, "weekly", "weekly"],
  ]);
  // The next 07:00 in Paris, and the next Friday 07:00, from the moment of saving.
  const time = { zone: "Europe/Paris", hour: 7, weekday: 5 };
  const daily = Date.parse(data.nextDigests.daily);
  const weekly = Date.parse(data.nextDigests.weekly);
  expect([nextDueAt("daily", time, before), nextDueAt("daily", time, Date.now())]).toContain(daily);
  expect([nextDueAt("weekly", time, before), nextDueAt("weekly", time, Date.now())]).toContain(weekly);
  // GET answers the same (a digest run of another test file may have moved the due times on since).
  const { nextDigests, ...rest } = (await api("GET", PATH, { token: owner.token })).body.data;
  expect({ ...rest, nextDigests: data.nextDigests }).toEqual(data);
  expect(Date.parse(nextDigests.daily)).toBeGreaterThanOrEqual(daily);
  // The member item holds it; its place in the due index is its earlier digest.
  const item = await memberItem(owner);
  expect(item.timeZone).toBe("Europe/Paris");
  expect(item.gsi1pk).toBe("DIGESTS");
  const soonest = [item.digests.daily.dueAt, item.digests.weekly.dueAt].sort()[0];
  expect(item.gsi1sk).toBe(`${soonest}#${owner.orgId}#${owner.userId}`);
});

test("no digest chosen any more: the member leaves the due index", async () => {
  const off = await api("PUT", PATH, { token: owner.token, body: settings({ organization: "instant" }) });
  expect(off.status).toBe(200);
  expect(off.body.data.nextDigests).toEqual({ daily: null, weekly: null });
  const item = await memberItem(owner);
  expect(item.gsi1pk).toBeUndefined();
  expect(item.gsi1sk).toBeUndefined();
  expect(item.digests).toEqual({});
});

test("each member has their own choices", async () => {
  const member = await addMember(owner, "member", "notify-member");
  const res = await api("PUT", PATH, {
    token: member.token,
    body: settings({ organization: null, forms: [{ formId: contact, choice: "off" }], timeZone: "Asia/Tokyo" }),
  });
  expect(res.status).toBe(200);
  expect(res.body.data.forms[0]).toMatchObject({ formId: contact, choice: "off", effective: "off", listed: false });
  // The owner's are untouched.
  expect((await api("GET", PATH, { token: owner.token })).body.data.organization).toBe("instant");
});

describe("refused", () => {
  test.each([
    ["a bare offset", { timeZone: "+01:00" }, "timeZone"],
    ["an unknown zone", { timeZone: "Mars/Olympus_Mons" }, "timeZone"],
    ["an hour past 23", { digestHour: 24 }, "digestHour"],
    ["a fractional hour", { digestHour: 7.5 }, "digestHour"],
    ["weekday 0", { digestWeekday: 0 }, "digestWeekday"],
    ["weekday 8", { digestWeekday: 8 }, "digestWeekday"],
    ["an unknown choice", { organization: "hourly" }, "organization"],
    [
      "a form listed twice",
      {
        forms: [
          { formId: "form_x", choice: "off" },
          { formId: "form_x", choice: "daily" },
        ],
      },
      "forms",
    ],
    ["a malformed form id", { forms: [{ formId: "../x", choice: "off" }] }, "forms.0.formId"],
  ])("%s: 400 VALIDATION_ERROR naming the field", async (_what, change, path) => {
    const res = await api("PUT", PATH, { token: owner.token, body: settings(change) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  test("more than 100 form choices, or an unknown field: 400", async () => {
    const many = Array.from({ length: 101 }, (_, i) => ({ formId: `form_${i}`, choice: "off" }));
    const tooMany = await api("PUT", PATH, { token: owner.token, body: settings({ forms: many }) });
    expect([tooMany.status, tooMany.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    const extra = await api("PUT", PATH, { token: owner.token, body: { ...settings(), userId: "usr_other" } });
    expect([extra.status, extra.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("another organization's form, or an archived one: 404 naming it, and nothing saved", async () => {
    const other = await signupOwner("notify-other");
    const foreign = await newForm(other, await createSite(other, "Other"), "Theirs");
    const before = (await api("GET", PATH, { token: owner.token })).body.data;
    const res = await api("PUT", PATH, {
      token: owner.token,
      body: settings({
        forms: [
          { formId: contact, choice: "off" },
          { formId: foreign, choice: "instant" },
        ],
      }),
    });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: "NOT_FOUND", details: [{ path: "forms.1.formId" }] });
    expect((await api("GET", PATH, { token: owner.token })).body.data).toEqual(before);
    // Nothing of the other organization's forms shows either.
    expect(before.forms.map((f: { formId: string }) => f.formId)).not.toContain(foreign);

    const archived = await newForm(owner, siteId, "Old");
    expect((await api("DELETE", `/api/v1/forms/${archived}`, { token: owner.token })).status).toBe(200);
    const gone = await api("PUT", PATH, { token: owner.token, body: settings({ forms: [{ formId: archived, choice: "off" }] }) });
    expect([gone.status, gone.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });

  test("no session: 401; the route takes no API key", async () => {
    expect((await api("GET", PATH)).status).toBe(401);
    expect((await api("PUT", PATH, { body: settings() })).status).toBe(401);
  });
});
