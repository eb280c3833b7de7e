import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { auditItems } from "../../support/audit-log-items";
import { apiKeyWith, insertForm } from "../../support/fixtures";
import { makeSubmission, putSubmissions } from "../../support/submissions";

const TAGS = "/api/v1/tags";
const tagPath = (id: string) => `${TAGS}/${id}`;

let owner: Account;
let member: Account;

beforeAll(async () => {
  owner = await signupOwner("tags");
  member = await addMember(owner, "member", "tags-member");
});

describe("tags", () => {
  test("create, list by name, rename, recolour and delete; each is audited", async () => {
    const created = await api("POST", TAGS, { token: member.token, body: { name: "  Hot lead ", colour: "red" } });
    expect(created.status).toBe(201);
    const tag = created.body.data.tag;
    expect(tag).toEqual({
      id: expect.stringMatching(/^tag_/),
      name: "Hot lead",
      colour: "red",
      createdAt: expect.any(String),
      updatedAt: tag.createdAt,
    });
    await api("POST", TAGS, { token: owner.token, body: { name: "Callback", colour: "blue" } });
    const list = await api("GET", TAGS, { token: member.token });
    expect(list.body.data.tags.map((t: { name: string }) => t.name)).toEqual(["Callback", "Hot lead"]);

    const renamed = await api("PUT", tagPath(tag.id), {
      token: member.token,
      body: { name: "Warm lead", colour: "amber", updatedAt: tag.updatedAt },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.tag).toMatchObject({ name: "Warm lead", colour: "amber" });
    const stale = await api("PUT", tagPath(tag.id), { token: member.token, body: { colour: "green", updatedAt: tag.updatedAt } });
    expect([stale.status, stale.body.error.code]).toEqual([409, "CONFLICT"]);
    // The old name is free again; the new one is taken, whatever its case.
    expect((await api("POST", TAGS, { token: owner.token, body: { name: "hot LEAD", colour: "gray" } })).status).toBe(201);
    const taken = await api("POST", TAGS, { token: owner.token, body: { name: "WARM lead", colour: "gray" } });
    expect([taken.status, taken.body.error.code]).toEqual([409, "TAG_NAME_TAKEN"]);
    const renameTaken = await api("PUT", tagPath(tag.id), { token: owner.token, body: { name: "callback" } });
    expect([renameTaken.status, renameTaken.body.error.code]).toEqual([409, "TAG_NAME_TAKEN"]);
    // A change of case only keeps the claim.
    expect((await api("PUT", tagPath(tag.id), { token: owner.token, body: { name: "WARM LEAD" } })).status).toBe(200);

    // A member cannot delete (forms.delete); the owner can.
    const denied = await api("DELETE", tagPath(tag.id), { token: member.token });
    expect([denied.status, denied.body.error.code]).toEqual([403, "INSUFFICIENT_PERMISSION"]);
    expect((await api("DELETE", tagPath(tag.id), { token: owner.token })).status).toBe(200);
    expect((await api("DELETE", tagPath(tag.id), { token: owner.token })).status).toBe(404);
    // Its name is free again.
    expect((await api("POST", TAGS, { token: owner.token, body: { name: "warm lead", colour: "teal" } })).status).toBe(201);
    for (const action of ["tag.created", "tag.updated", "tag.deleted"]) {
      expect((await auditItems(owner.orgId, action)).some((e) => e.target.id === tag.id)).toBe(true);
    }
  });

  test("a deleted tag's id stays on submissions; the view returns the stored ids", async () => {
    const org = await signupOwner("tags-dangling");
    const form = await insertForm(org, await createSite(org));
    const s = makeSubmission(form);
    await putSubmissions([s]);
    const tag = (await api("POST", TAGS, { token: org.token, body: { name: "Gone soon", colour: "pink" } })).body.data.tag;
    expect((await api("PATCH", `/api/v1/submissions/${s.id}`, { token: org.token, body: { tags: [tag.id] } })).status).toBe(200);
    expect((await api("DELETE", tagPath(tag.id), { token: org.token })).status).toBe(200);
    const read = await api("GET", `/api/v1/submissions/${s.id}`, { token: org.token });
    expect(read.body.data.submission.tags).toEqual([tag.id]);
    // Re-adding a deleted tag is refused; dropping it is fine.
    const other = (await api("POST", TAGS, { token: org.token, body: { name: "Other", colour: "gray" } })).body.data.tag;
    expect(
      (await api("PATCH", `/api/v1/submissions/${s.id}`, { token: org.token, body: { tags: [tag.id, other.id] } })).status,
    ).toBe(200);
    const dropped = await api("PATCH", `/api/v1/submissions/${s.id}`, { token: org.token, body: { tags: [other.id] } });
    expect(dropped.body.data.submission.tags).toEqual([other.id]);
    const readd = await api("PATCH", `/api/v1/submissions/${s.id}`, { token: org.token, body: { tags: [other.id, tag.id] } });
    expect([readd.status, readd.body.error.code]).toEqual([422, "UNKNOWN_TAG"]);
  });

  test("at most 50 tags per organization", async () => {
    const org = await signupOwner("tags-limit");
    for (let i = 0; i < 50; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          api("POST", TAGS, { token: org.token, body: { name: `t${i + k}`, colour: "gray" } }),
        ),
      );
      expect(batch.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    const over = await api("POST", TAGS, { token: org.token, body: { name: "one more", colour: "gray" } });
    expect([over.status, over.body.error.code]).toEqual([403, "TAG_LIMIT_REACHED"]);
    const first = (await api("GET", TAGS, { token: org.token })).body.data.tags[0];
    expect((await api("DELETE", tagPath(first.id), { token: org.token })).status).toBe(200);
    expect((await api("POST", TAGS, { token: org.token, body: { name: "one more", colour: "gray" } })).status).toBe(201);
  });

  test("permissions of API keys; another organization's tag is 404; bad input is 400", async () => {
    const viewer = await apiKeyWith(owner, ["submissions.view"]);
    const editor = await apiKeyWith(owner, ["forms.edit"]);
    expect((await api("GET", TAGS, { token: viewer })).status).toBe(200);
    expect((await api("GET", TAGS, { token: editor })).status).toBe(403);
    expect((await api("POST", TAGS, { token: viewer, body: { name: "k", colour: "red" } })).status).toBe(403);
    const byKey = await api("POST", TAGS, { token: editor, body: { name: "From CRM", colour: "indigo" } });
    expect(byKey.status).toBe(201);
    expect((await api("DELETE", tagPath(byKey.body.data.tag.id), { token: editor })).status).toBe(403);
    const stranger = await signupOwner("tags-foreign");
    expect((await api("PUT", tagPath(byKey.body.data.tag.id), { token: stranger.token, body: { colour: "red" } })).status).toBe(
      404,
    );
    expect((await api("DELETE", tagPath(byKey.body.data.tag.id), { token: stranger.token })).status).toBe(404);
    expect((await api("GET", TAGS, { token: stranger.token })).body.data.tags).toEqual([]);
    for (const body of [
      { name: "", colour: "red" },
      { name: "   ", colour: "red" },
      { name: "x".repeat(33), colour: "red" },
      { name: "ok", colour: "chartreuse" },
      { name: "ok" },
      { name: "ok", colour: "red", id: "tag_mine" },
    ]) {
      const res = await api("POST", TAGS, { token: owner.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
    }
  });
});
