import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";

/**
 * A form's forward-only setting (docs/privacy.md, "Forward-only forms"; docs/api.md, "Forms"):
 * off by default, validated as a boolean, and every switch on or off recorded in the
 * organization's audit log in the form's own write; a refused change records nothing.
 */

const formPath = (formId: string) => `/api/v1/forms/${formId}`;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("forward-setting");
  siteId = await createSite(owner);
});

async function newForm() {
  const res = await api("POST", `/api/v1/sites/${siteId}/forms`, { token: owner.token, body: { name: "Pipe" } });
  if (res.status !== 201) throw new Error(`form creation failed: ${res.status} ${res.text}`);
  return res.body.data.form as { id: string; updatedAt: string; settings: Record<string, unknown> };
}

const put = (formId: string, body: Record<string, unknown>) => api("PUT", formPath(formId), { token: owner.token, body });

/** The organization's audit entries about `formId`, oldest first (read from the table: the log's route is another branch's). */
async function auditOf(formId: string) {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.auditPartition(owner.orgId) },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []).filter((item) => item.target?.id === formId);
}

describe("forward-only setting", () => {
  test("off by default; turning it on and off answers it and records each switch in the audit log", async () => {
    const form = await newForm();
    expect(form.settings.forwardOnly).toBe(false);

    const on = await put(form.id, { settings: { forwardOnly: true } });
    expect(on.status).toBe(200);
    expect(on.body.data.form.settings.forwardOnly).toBe(true);
    expect((await api("GET", formPath(form.id), { token: owner.token })).body.data.form.settings.forwardOnly).toBe(true);

    // Saving other settings leaves it, and records nothing; saving the same value records nothing either.
    const other = await put(form.id, { settings: { notifyEmails: ["team@example.com"] } });
    expect(other.body.data.form.settings).toMatchObject({ forwardOnly: true, notifyEmails: ["team@example.com"] });
    expect((await put(form.id, { settings: { forwardOnly: true } })).status).toBe(200);
    expect((await put(form.id, { name: "Pipe 2" })).status).toBe(200);

    const off = await put(form.id, { settings: { forwardOnly: false } });
    expect(off.body.data.form.settings.forwardOnly).toBe(false);

    const entries = await auditOf(form.id);
    expect(entries.map((e) => [e.action, e.details])).toEqual([
      ["form.forward_only_changed", { from: false, to: true }],
      ["form.forward_only_changed", { from: true, to: false }],
    ]);
    expect(entries[0]).toMatchObject({
      orgId: owner.orgId,
      target: { type: "form", id: form.id, name: "Pipe" },
      actor: { type: "member", userId: owner.userId, email: owner.email },
      actorId: owner.userId,
    });
    expect(typeof entries[0]?.actor.ip).toBe("string");
    expect(entries[0]?.ttl).toBeGreaterThan(Date.now() / 1000 + 364 * 86_400);
  });

  test.each([["yes"], [1], [null], [{}]])(
    "forwardOnly %p is 400 VALIDATION_ERROR; nothing is written or recorded",
    async (value) => {
      const form = await newForm();
      const res = await put(form.id, { settings: { forwardOnly: value } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      const read = (await api("GET", formPath(form.id), { token: owner.token })).body.data.form;
      expect(read.settings.forwardOnly).toBe(false);
      expect(read.updatedAt).toBe(form.updatedAt);
      expect(await auditOf(form.id)).toEqual([]);
    },
  );

  test("a change of a version no longer current is 409 CONFLICT: neither the setting nor an entry is written", async () => {
    const form = await newForm();
    expect((await put(form.id, { name: "Renamed", ifUpdatedAt: form.updatedAt })).status).toBe(200);
    const stale = await put(form.id, { settings: { forwardOnly: true }, ifUpdatedAt: form.updatedAt });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe("CONFLICT");
    expect((await api("GET", formPath(form.id), { token: owner.token })).body.data.form.settings.forwardOnly).toBe(false);
    expect(await auditOf(form.id)).toEqual([]);
  });

  test("another organization's form is 404 and records nothing", async () => {
    const form = await newForm();
    const stranger = await signupOwner("forward-stranger");
    const res = await api("PUT", formPath(form.id), { token: stranger.token, body: { settings: { forwardOnly: true } } });
    expect(res.status).toBe(404);
    expect(await auditOf(form.id)).toEqual([]);
  });
});
