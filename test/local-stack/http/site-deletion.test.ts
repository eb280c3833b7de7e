import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { insertForm } from "../../support/fixtures";
import { accepted, intakeTarget, linkedForm, postIntake } from "../../support/intake";
import { makeSubmission, putSubmissions, storedItem } from "../../support/submissions";
import { rawItem } from "../pipeline/support/emails";

/** A site is deleted only when nothing of it would be left behind (docs/api.md, "Sites"). */

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("site-deletion");
});

const deleteSite = (siteId: string) => api("DELETE", `/api/v1/sites/${siteId}`, { token: owner.token });
const createForm = (siteId: string, name = "Builder") =>
  api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name } });
const removeForm = async (formId: string) => {
  expect((await api("DELETE", `/api/v1/forms/${formId}`, { token: owner.token })).status).toBe(200);
  expect((await api("DELETE", `/api/v1/forms/${formId}?permanent=true`, { token: owner.token })).status).toBe(200);
};

describe("a site with forms left is 409 SITE_NOT_EMPTY, naming them", () => {
  test("builder forms, archived ones included, until each is permanently deleted", async () => {
    const siteId = await createSite(owner, "with forms");
    const live = (await createForm(siteId, "Live")).body.data.form.id as string;
    const archived = (await createForm(siteId, "Archived")).body.data.form.id as string;
    await api("DELETE", `/api/v1/forms/${archived}`, { token: owner.token });

    const refused = await deleteSite(siteId);
    expect([refused.status, refused.body.error.code]).toEqual([409, "SITE_NOT_EMPTY"]);
    expect(refused.body.error.message).toMatch(/2 forms/);
    expect(refused.body.error.details).toEqual([{ path: "forms", message: "2 left" }]);

    await removeForm(live);
    expect((await deleteSite(siteId)).body.error.message).toMatch(/1 form\b/);
    await api("DELETE", `/api/v1/forms/${archived}?permanent=true`, { token: owner.token });
    expect((await deleteSite(siteId)).status).toBe(200);
    // Nothing of the site is left: the site item and its reference-number sequence.
    expect(await rawItem(keys.site(owner.orgId, siteId))).toBeUndefined();
    expect(await rawItem(keys.siteSequence(siteId))).toBeUndefined();
  });

  test("webhooks and their auto-created forms: the webhook's permanent deletion takes its form along", async () => {
    const t = await intakeTarget("site-del-auto", undefined, owner);
    accepted(await postIntake(t.webhook, { json: { email: "a@example.com" } }));
    await linkedForm(t.webhook.id);
    const refused = await deleteSite(t.siteId);
    expect(refused.body.error.message).toMatch(/1 webhook and 1 form/);
    const base = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", base, { token: owner.token });
    expect((await api("DELETE", `${base}?permanent=true`, { token: owner.token })).status).toBe(200);
    expect((await deleteSite(t.siteId)).status).toBe(200);
  });

  test("a form stored before sites counted their forms is found through the site's form index", async () => {
    const siteId = await createSite(owner, "legacy form");
    const legacy = await insertForm(owner, siteId, { name: "Legacy" }, { uncounted: true });
    const refused = await deleteSite(siteId);
    expect([refused.status, refused.body.error.message]).toEqual([409, expect.stringMatching(/1 form\b/)]);
    await removeForm(legacy.id);
    expect((await deleteSite(siteId)).status).toBe(200);
  });

  test("under concurrency no form outlives its site: creates racing the delete either land first (409) or 404", async () => {
    for (let round = 0; round < 3; round++) {
      const siteId = await createSite(owner, `race ${round}`);
      const [deleted, ...created] = await Promise.all([
        deleteSite(siteId),
        ...Array.from({ length: 6 }, (_, i) => createForm(siteId, `Racer ${i}`)),
      ]);
      const made = created.filter((r) => r.status === 201);
      expect(created.every((r) => r.status === 201 || r.status === 404)).toBe(true);
      if (deleted.status === 200) expect(made).toHaveLength(0);
      else expect([deleted.status, deleted.body.error.code]).toEqual([409, "SITE_NOT_EMPTY"]);
    }
  });
});

describe("a site's detail says what blocks its deletion before anyone tries", () => {
  const contents = async (siteId: string) => {
    const read = await api("GET", `/api/v1/sites/${siteId}`, { token: owner.token });
    expect(read.status).toBe(200);
    return read.body.data.contents;
  };

  test("webhooks and forms, archived ones included, counted until each is permanently deleted", async () => {
    const t = await intakeTarget("site-contents", undefined, owner);
    expect(await contents(t.siteId)).toEqual({ webhooks: 1, forms: 0 });
    accepted(await postIntake(t.webhook, { json: { email: "a@example.com" } }));
    await linkedForm(t.webhook.id);
    const builder = (await createForm(t.siteId, "Built")).body.data.form.id as string;
    await api("DELETE", `/api/v1/forms/${builder}`, { token: owner.token });
    expect(await contents(t.siteId)).toEqual({ webhooks: 1, forms: 2 });

    await removeForm(builder);
    const base = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", base, { token: owner.token });
    expect(await contents(t.siteId)).toEqual({ webhooks: 1, forms: 1 });
    expect((await api("DELETE", `${base}?permanent=true`, { token: owner.token })).status).toBe(200);
    expect(await contents(t.siteId)).toEqual({ webhooks: 0, forms: 0 });
    expect((await deleteSite(t.siteId)).status).toBe(200);
    expect((await api("GET", `/api/v1/sites/${t.siteId}`, { token: owner.token })).status).toBe(404);
  });

  test("another organization's site is 404", async () => {
    const siteId = await createSite(owner, "not yours");
    const stranger = await signupOwner("contents-stranger");
    const foreign = await api("GET", `/api/v1/sites/${siteId}`, { token: stranger.token });
    expect([foreign.status, foreign.body.error.code]).toEqual([404, "NOT_FOUND"]);
  });
});

describe("erasure reaches every submission, whatever happened to the site", () => {
  test("forms a site left behind before deletion was refused are erased through the old site's id", async () => {
    const siteId = await createSite(owner, "deleted long ago");
    const orphan = await insertForm(owner, siteId, { name: "Left behind" }, { uncounted: true });
    const [match, other] = [
      makeSubmission(orphan, { data: { email: "Erase.Me@example.com" } }),
      makeSubmission(orphan, { data: { email: "keep@example.com" } }),
    ];
    await putSubmissions([match, other]);
    // The site as it was deleted before this rule: its item is gone, its form is not.
    await db().send(new DeleteCommand({ TableName: tableName(), Key: keys.site(owner.orgId, siteId) }));

    const erase = await api("POST", `/api/v1/sites/${siteId}/submissions/erase`, {
      token: owner.token,
      body: { email: "erase.me@example.com" },
    });
    expect([erase.status, erase.body.data]).toEqual([200, { deleted: 1, complete: true, cursor: null }]);
    expect(await storedItem(match.id)).toBeUndefined();
    expect(await storedItem(other.id)).toBeDefined();
    // Another organization cannot reach them by that id.
    const stranger = await signupOwner("stranger");
    const foreign = await api("POST", `/api/v1/sites/${siteId}/submissions/erase`, {
      token: stranger.token,
      body: { email: "keep@example.com" },
    });
    expect(foreign.status).toBe(404);
  });
});
