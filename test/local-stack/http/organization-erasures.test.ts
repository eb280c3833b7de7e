import type { Principal } from "../../../lib/auth/principal";
import type { Form } from "../../../lib/store/forms";
import { eraseEverywhere } from "../../../lib/subject-requests";
import { addMember, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { followCursors } from "../../support/budget-clock";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { makeSubmission, minutesAgo, putSubmissions, storedItem } from "../../support/submissions";

const ERASE = "/api/v1/organization/erasures";
const ADDRESS = "gone@example.com";

async function organization(label: string) {
  const owner = await signupOwner(label);
  const [siteA, siteB] = [await createSite(owner, "Shop"), await createSite(owner, "Blog")];
  const forms = [
    await insertForm(owner, siteA),
    await insertForm(owner, siteA, { archivedAt: minutesAgo(1) }),
    await insertForm(owner, siteB),
  ] as Form[];
  return { owner, forms };
}

test("erases the organization's submissions holding the address in every site and form, with an audit entry per deletion", async () => {
  const { owner, forms } = await organization("org-erase");
  const [a, b, c] = forms as [Form, Form, Form];
  const target = [
    makeSubmission(a, { data: { email: "Gone@Example.com" } }),
    makeSubmission(b, { data: { emails: ["x@example.com", " gone@example.com"] } }),
    makeSubmission(c, { data: { work_email: "GONE@EXAMPLE.COM" } }),
  ];
  const kept = [makeSubmission(a, { data: { email: "stays@example.com", note: "gone@example.com is a friend" } })];
  const stranger = await organization("org-erase-stranger");
  const foreign = makeSubmission(stranger.forms[0] as Form, { data: { email: ADDRESS } });
  await putSubmissions([...target, ...kept, foreign]);

  const res = await api("POST", ERASE, { token: owner.token, body: { email: ADDRESS } });
  expect([res.status, res.body.data]).toEqual([200, { deleted: 3, complete: true, cursor: null }]);
  for (const s of target) expect(await storedItem(s.id)).toBeUndefined();
  for (const s of [...kept, foreign]) expect(await storedItem(s.id)).toBeDefined();
  // One transaction per form's page of matches here, each with its entry.
  const entries = await auditItems(owner.orgId, "submissions.erased");
  expect(entries.map((e) => e.details.count).sort()).toEqual([1, 1, 1]);
  expect(entries[0]).toEqual(
    expect.objectContaining({
      actor: expect.objectContaining({ type: "member", userId: owner.userId }),
      target: { type: "organization", id: owner.orgId },
      details: { email: ADDRESS, count: 1 },
    }),
  );
  expect(await auditItems(stranger.owner.orgId, "submissions.erased")).toEqual([]);

  // Asked again, nothing is left: the request is still recorded, with none.
  const again = await api("POST", ERASE, { token: owner.token, body: { email: ADDRESS } });
  expect(again.body.data).toEqual({ deleted: 0, complete: true, cursor: null });
  const after = await auditItems(owner.orgId, "submissions.erased");
  expect(after).toHaveLength(4);
  expect(after.filter((e) => e.details.count === 0)).toHaveLength(1);
});

test("an erasure that runs out of time answers a cursor bound to its address and organization", async () => {
  const { owner, forms } = await organization("org-erase-resume");
  const matching = forms.flatMap((form) => [0, 1].map(() => makeSubmission(form, { data: { email: ADDRESS } })));
  await putSubmissions(matching);
  const principal = { kind: "apiKey", keyId: "key_erase", orgId: owner.orgId } as unknown as Principal;
  const answers = await followCursors(
    (cursor, clock) => eraseEverywhere(principal, "203.0.113.9", ADDRESS, cursor, clock),
    (answer) => answer.cursor,
  );
  // The first cursor, sent for another address, by another organization, or to the access request: refused.
  const first = answers[0]?.cursor;
  const intruder = await signupOwner("org-erase-intruder");
  for (const [path, token, email] of [
    [ERASE, owner.token, "other@example.com"],
    [ERASE, intruder.token, ADDRESS],
    ["/api/v1/organization/access-requests", owner.token, ADDRESS],
  ] as const) {
    const res = await api("POST", path, { token, body: { email, cursor: first } });
    expect([path, res.status, res.body.error?.code]).toEqual([path, 400, "INVALID_CURSOR"]);
  }
  expect(answers.map((a) => [a.deleted, a.complete])).toEqual([
    [2, false],
    [2, false],
    [2, true],
  ]);
  for (const s of matching) expect(await storedItem(s.id)).toBeUndefined();
});

test("members may not erase (ROLE_REQUIRED), keys need submissions.delete, anonymous is 401, bad input is 400", async () => {
  const owner = await signupOwner("org-erase-perm");
  const member = await addMember(owner, "member");
  const denied = await api("POST", ERASE, { token: member.token, body: { email: ADDRESS } });
  expect([denied.status, denied.body.error.code]).toEqual([403, "ROLE_REQUIRED"]);
  const lacking = await apiKeyWith(owner, ["submissions.view", "submissions.export"]);
  const keyDenied = await api("POST", ERASE, { token: lacking, body: { email: ADDRESS } });
  expect([keyDenied.status, keyDenied.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
  expect(await auditItems(owner.orgId, "submissions.erased")).toEqual([]);
  const key = await apiKeyWith(owner, ["submissions.delete"]);
  expect((await api("POST", ERASE, { token: key, body: { email: ADDRESS } })).status).toBe(200);
  expect((await api("POST", ERASE, { body: { email: ADDRESS } })).status).toBe(401);
  for (const body of [{}, { email: "nope" }, { email: ADDRESS, cursor: "" }, { email: ADDRESS, all: true }]) {
    const res = await api("POST", ERASE, { token: owner.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
  }
  const garbage = await api("POST", ERASE, { token: owner.token, body: { email: ADDRESS, cursor: "garbage" } });
  expect([garbage.status, garbage.body.error.code]).toEqual([400, "INVALID_CURSOR"]);
});
