import type { Principal } from "../../../lib/auth/principal";
import type { Form } from "../../../lib/store/forms";
import { requestAccess } from "../../../lib/subject-requests";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { followCursors } from "../../support/budget-clock";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import {
  createHook,
  makeSubmission,
  minutesAgo,
  putSubmissions,
  replyToMetadata,
  storedItem,
  submitTo,
} from "../../support/submissions";

const ACCESS = "/api/v1/organization/access-requests";
const ADDRESS = "person@example.com";

/** An owner with two sites: three forms (one archived) on the first, one on the second. */
async function organizationWithForms(label: string) {
  const owner = await signupOwner(label);
  const [siteA, siteB] = [await createSite(owner, "Shop"), await createSite(owner, "Blog")];
  const forms = [
    await insertForm(owner, siteA, { name: "Contact" }),
    await insertForm(owner, siteA, { name: "Old quote", archivedAt: minutesAgo(1) }),
    await insertForm(owner, siteB, { name: "Newsletter" }),
  ] as Form[];
  return { owner, siteA, siteB, forms };
}

/** The submissions holding ADDRESS in every way erasure matches, and some that do not. */
function personalData(forms: Form[]) {
  const [contact, old, newsletter] = forms as [Form, Form, Form];
  const holding = [
    makeSubmission(contact, { data: { email: "Person@Example.com", note: "hello" } }),
    makeSubmission(contact, { data: { contact: [" person@example.com ", "x"] } }),
    makeSubmission(old, { data: { work_email: "PERSON@EXAMPLE.COM" } }),
    makeSubmission(newsletter, { data: { name: "P" }, metadata: replyToMetadata(ADDRESS) }),
  ];
  const others = [
    makeSubmission(contact, { data: { email: "someone@example.com", note: "person@example.com is my friend" } }),
    makeSubmission(newsletter, { data: { email: "person@example.org" } }),
  ];
  return { holding, others };
}

const idsOf = (submissions: { id: string }[]) => submissions.map((s) => s.id).sort();

describe("access requests", () => {
  let org: Awaited<ReturnType<typeof organizationWithForms>>;
  let holding: ReturnType<typeof makeSubmission>[];
  let viaIntake: string;
  beforeAll(async () => {
    org = await organizationWithForms("access");
    const data = personalData(org.forms);
    holding = data.holding;
    // Another organization's submission of the same address is never part of the answer.
    const stranger = await organizationWithForms("access-stranger");
    await putSubmissions([...data.holding, ...data.others, ...personalData(stranger.forms).holding]);
    const hook = await createHook(org.owner, org.siteB);
    viaIntake = (await submitTo(hook, { email: ADDRESS, message: "via intake" })).submissionId;
  });

  test("finds exactly the organization's submissions holding the address, across its sites and forms, with their names", async () => {
    const res = await api("POST", ACCESS, { token: org.owner.token, body: { email: "PERSON@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body.data.nextCursor).toBeNull();
    const found: { id: string }[] = res.body.data.submissions;
    expect(idsOf(found)).toEqual([...holding.map((s) => s.id), viaIntake].sort());
    const first = found.find((s) => s.id === holding[0]?.id);
    expect(first).toEqual(
      expect.objectContaining({
        siteId: org.siteA,
        siteName: "Shop",
        formId: org.forms[0]?.id,
        formName: "Contact",
        data: { email: "Person@Example.com", note: "hello" },
        spam: expect.objectContaining({ isSpam: false }),
        createdAt: expect.any(String),
      }),
    );
    expect(found.find((s) => s.id === holding[3]?.id)).toEqual(
      expect.objectContaining({ siteName: "Blog", formName: "Newsletter" }),
    );
    // Reading changes nothing.
    for (const s of holding) expect(await storedItem(s.id)).toBeDefined();
  });

  test("each call records an audit entry with the address and how many submissions it answered", async () => {
    const before = (await auditItems(org.owner.orgId, "submissions.access_requested")).length;
    await api("POST", ACCESS, { token: org.owner.token, body: { email: ADDRESS } });
    const entries = await auditItems(org.owner.orgId, "submissions.access_requested");
    expect(entries).toHaveLength(before + 1);
    expect(entries.at(-1)).toEqual(
      expect.objectContaining({
        orgId: org.owner.orgId,
        actor: expect.objectContaining({ type: "member", email: org.owner.email, ip: expect.any(String) }),
        target: { type: "organization", id: org.owner.orgId },
        details: { email: ADDRESS, submissions: 5, complete: true },
        ttl: expect.any(Number),
      }),
    );
  });

  test("a request that runs out of time answers a cursor; following it finds every submission exactly once", async () => {
    const principal = { kind: "apiKey", keyId: "key_budget", orgId: org.owner.orgId } as unknown as Principal;
    const pages = await followCursors(
      (cursor, clock) => requestAccess(principal, "203.0.113.9", ADDRESS, cursor, clock),
      (page) => page.nextCursor,
    );
    // Four forms (three inserted, one created by intake), one per call.
    expect(pages).toHaveLength(4);
    expect(pages.slice(0, -1).every((p) => p.nextCursor !== null)).toBe(true);
    const all = pages.flatMap((p) => p.submissions);
    expect(idsOf(all)).toEqual([...holding.map((s) => s.id), viaIntake].sort());
    const byKey = (await auditItems(org.owner.orgId, "submissions.access_requested")).filter((e) => e.actorId === "key_budget");
    expect(byKey.map((e) => e.details)).toEqual(
      pages.map((p) => ({ email: ADDRESS, submissions: p.submissions.length, complete: p.nextCursor === null })),
    );

    // The cursor continues over HTTP for the same organization and address...
    const middle = pages[0]?.nextCursor as string;
    const resumed = await api("POST", ACCESS, { token: org.owner.token, body: { email: ADDRESS, cursor: middle } });
    expect(resumed.status).toBe(200);
    expect(idsOf(resumed.body.data.submissions)).toEqual(idsOf(pages.slice(1).flatMap((p) => p.submissions)));
    // ...and is refused for another address or another organization, which learn nothing.
    const intruder = await signupOwner("access-cursor-intruder");
    for (const [token, email] of [
      [org.owner.token, "other@example.com"],
      [intruder.token, ADDRESS],
    ] as const) {
      const res = await api("POST", ACCESS, { token, body: { email, cursor: middle } });
      expect([res.status, res.body.error?.code, res.body.data]).toEqual([400, "INVALID_CURSOR", undefined]);
    }
    // A cursor edited to point elsewhere (its binding kept) is refused too.
    const edited = JSON.parse(Buffer.from(middle, "base64url").toString("utf8"));
    edited.b = "x";
    const tampered = Buffer.from(JSON.stringify(edited)).toString("base64url");
    const res = await api("POST", ACCESS, { token: org.owner.token, body: { email: ADDRESS, cursor: tampered } });
    expect([res.status, res.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
  });

  test("a call stops after about 2 MB of submissions and answers a cursor for the rest", async () => {
    const big = await organizationWithForms("access-big");
    const form = big.forms[0] as Form;
    // Eight submissions of ~370 KB each (under DynamoDB's 400 KB item limit): ~3 MB in all.
    const large = Array.from({ length: 8 }, () => makeSubmission(form, { data: { email: ADDRESS, notes: "x".repeat(370_000) } }));
    await putSubmissions(large);
    const first = await api("POST", ACCESS, { token: big.owner.token, body: { email: ADDRESS } });
    expect(first.status).toBe(200);
    const firstIds = idsOf(first.body.data.submissions);
    expect(firstIds.length).toBeGreaterThanOrEqual(6);
    expect(firstIds.length).toBeLessThan(8);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const rest = await api("POST", ACCESS, {
      token: big.owner.token,
      body: { email: ADDRESS, cursor: first.body.data.nextCursor },
    });
    expect(rest.body.data.nextCursor).toBeNull();
    expect([...firstIds, ...idsOf(rest.body.data.submissions)].sort()).toEqual(idsOf(large));
  });

  test.each([
    ["no email", {}],
    ["an invalid email", { email: "person" }],
    ["an unknown field", { email: ADDRESS, siteId: "site_x" }],
    ["an empty cursor", { email: ADDRESS, cursor: "" }],
    ["a cursor that is not a string", { email: ADDRESS, cursor: 7 }],
  ])("%s is 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("POST", ACCESS, { token: org.owner.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test.each([
    ["garbage", "garbage"],
    ["an erasure's cursor", "eyJmb3JtSWQiOiJmb3JtX3gifQ"],
    ["a list's cursor", Buffer.from(JSON.stringify({ pk: "x", sk: "y" })).toString("base64url")],
  ])("a cursor that is %s is 400 INVALID_CURSOR", async (_label, cursor) => {
    const res = await api("POST", ACCESS, { token: org.owner.token, body: { email: ADDRESS, cursor } });
    expect([res.status, res.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
  });
});

describe("access request permissions", () => {
  let owner: Account;
  beforeAll(async () => {
    owner = await signupOwner("access-perm");
  });

  test("an admin may; a member may not (ROLE_REQUIRED), and nothing is recorded for a refusal", async () => {
    const admin = await addMember(owner, "admin");
    const member = await addMember(owner, "member");
    expect((await api("POST", ACCESS, { token: admin.token, body: { email: ADDRESS } })).status).toBe(200);
    const before = await auditItems(owner.orgId, "submissions.access_requested");
    const denied = await api("POST", ACCESS, { token: member.token, body: { email: ADDRESS } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "ROLE_REQUIRED"]);
    expect(await auditItems(owner.orgId, "submissions.access_requested")).toHaveLength(before.length);
  });

  test("an API key needs submissions.export", async () => {
    const lacking = await apiKeyWith(owner, ["submissions.view", "submissions.delete"]);
    const denied = await api("POST", ACCESS, { token: lacking, body: { email: ADDRESS } });
    expect([denied.status, denied.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect(denied.body.error.message).toContain("submissions.export");
    const allowed = await apiKeyWith(owner, ["submissions.export"]);
    expect((await api("POST", ACCESS, { token: allowed, body: { email: ADDRESS } })).status).toBe(200);
  });

  test("without credentials it is 401", async () => {
    expect((await api("POST", ACCESS, { body: { email: ADDRESS } })).status).toBe(401);
  });
});
