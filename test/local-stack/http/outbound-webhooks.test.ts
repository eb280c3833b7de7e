import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { type Account, addMember, api, createSite, signupOwner } from "../../support/api";
import { apiKeyWith, insertForm } from "../../support/fixtures";

/** The outbound webhooks management API over HTTP (docs/api.md, "Outbound webhooks"). */

const base = (formId: string) => `/api/v1/forms/${formId}/outbound-webhooks`;

async function create(token: string, formId: string, body: Record<string, unknown>) {
  const res = await api("POST", base(formId), { token, body });
  if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; url: string; signingSecret: string; createdAt: string };
}

describe("outbound webhook management", () => {
  let owner: Account;
  let siteId: string;
  let formId: string;
  beforeAll(async () => {
    owner = await signupOwner("outbound");
    siteId = await createSite(owner);
    formId = (await insertForm(owner, siteId)).id;
  });

  test("POST creates an enabled endpoint and shows its signing secret once", async () => {
    const res = await api("POST", base(formId), {
      token: owner.token,
      body: { url: "http://127.0.0.1:9/hooks/inlet", description: "  CRM sync  " },
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^ep_[0-9A-Za-z]{22}$/),
      formId,
      kind: "webhook",
      url: "http://127.0.0.1:9/hooks/inlet",
      description: "CRM sync",
      isEnabled: true,
      signingSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
      chat: null,
      events: ["submission.created"],
      createdAt: expect.any(String),
    });
    const secretBytes = Buffer.from(data.signingSecret.slice("whsec_".length), "base64");
    expect(secretBytes.length).toBeGreaterThanOrEqual(24);
    expect(secretBytes.length).toBeLessThanOrEqual(64);

    const list = await api("GET", base(formId), { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.text).not.toContain(data.signingSecret.slice(6, 30));
    const listed = list.body.data.outboundWebhooks.find((e: { id: string }) => e.id === data.id);
    expect(listed).toEqual({
      id: data.id,
      formId,
      kind: "webhook",
      url: data.url,
      description: "CRM sync",
      chat: null,
      events: ["submission.created"],
      isEnabled: true,
      disabledReason: null,
      disabledAt: null,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
      lastDelivery: null,
    });
    expect(listed).not.toHaveProperty("signingSecret");

    // Stored as it is (it must sign), never hashed: the table holds the very secret shown.
    const item = await db().send(new GetCommand({ TableName: tableName(), Key: keys.outboundEndpoint(formId, data.id) }));
    expect(item.Item?.signingSecret).toBe(data.signingSecret);
  });

  test("PUT changes url, description and isEnabled, never shows the secret; DELETE removes", async () => {
    const endpoint = await create(owner.token, formId, { url: "https://127.0.0.1:8443/a" });
    const updated = await api("PUT", `${base(formId)}/${endpoint.id}`, {
      token: owner.token,
      body: { url: "http://127.0.0.1:8080/b", description: "second", isEnabled: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: endpoint.id,
      url: "http://127.0.0.1:8080/b",
      description: "second",
      isEnabled: false,
    });
    expect(updated.body.data).not.toHaveProperty("signingSecret");
    expect(updated.body.data.updatedAt >= endpoint.createdAt).toBe(true);

    const cleared = await api("PUT", `${base(formId)}/${endpoint.id}`, {
      token: owner.token,
      body: { description: null, isEnabled: true },
    });
    expect(cleared.body.data).toMatchObject({ description: null, isEnabled: true, disabledReason: null });

    const removed = await api("DELETE", `${base(formId)}/${endpoint.id}`, { token: owner.token });
    expect(removed.status).toBe(200);
    expect(removed.body.data.message).toMatch(/deleted/);
    expect((await api("PUT", `${base(formId)}/${endpoint.id}`, { token: owner.token, body: { isEnabled: false } })).status).toBe(
      404,
    );
    expect((await api("DELETE", `${base(formId)}/${endpoint.id}`, { token: owner.token })).status).toBe(404);
    const list = await api("GET", base(formId), { token: owner.token });
    expect(list.body.data.outboundWebhooks.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
  });

  test("validation: http(s) only, bounded url and description, no unknown fields", async () => {
    const cases: Record<string, unknown>[] = [
      {},
      { url: "" },
      { url: "ftp://example.com/" },
      { url: "file:///etc/passwd" },
      { url: "not a url" },
      { url: `https://example.com/${"a".repeat(2100)}` },
      { url: "https://example.com/", description: "x".repeat(501) },
      { url: "https://example.com/", secret: "mine" },
      { url: 42 },
    ];
    for (const body of cases) {
      const res = await api("POST", base(formId), { token: owner.token, body });
      expect([res.status, res.body.error.code]).toEqual([
        400,
        expect.stringMatching(/^(VALIDATION_ERROR|OUTBOUND_WEBHOOK_URL_NOT_ALLOWED)$/),
      ]);
    }
    const scheme = await api("POST", base(formId), { token: owner.token, body: { url: "ftp://example.com/" } });
    expect(scheme.body.error).toMatchObject({ code: "OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", message: expect.stringMatching(/http/) });
    const unresolvable = await api("POST", base(formId), { token: owner.token, body: { url: "https://no-such-host.invalid/" } });
    expect(unresolvable.status).toBe(400);
    expect(unresolvable.body.error).toMatchObject({
      code: "OUTBOUND_WEBHOOK_URL_NOT_ALLOWED",
      message: expect.stringMatching(/resolved/),
    });
    const put = await api("PUT", `${base(formId)}/ep_x`, { token: owner.token, body: { url: "gopher://x/" } });
    expect(put.status).toBe(404);
  });

  test("events: chosen at creation, changed by PUT, shown in every view; an item without any receives submission.created", async () => {
    const res = await api("POST", base(formId), {
      token: owner.token,
      body: { url: "http://127.0.0.1:9/events", events: ["submission.updated", "submission.created"] },
    });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual(["submission.updated", "submission.created"]);
    const id = res.body.data.id as string;
    const put = await api("PUT", `${base(formId)}/${id}`, { token: owner.token, body: { events: ["submission.updated"] } });
    expect(put.status).toBe(200);
    expect(put.body.data.events).toEqual(["submission.updated"]);
    // Another change leaves the events as they are.
    const renamed = await api("PUT", `${base(formId)}/${id}`, { token: owner.token, body: { description: "CRM" } });
    expect(renamed.body.data.events).toEqual(["submission.updated"]);
    const stored = await db().send(new GetCommand({ TableName: tableName(), Key: keys.outboundEndpoint(formId, id) }));
    expect(stored.Item?.events).toEqual(["submission.updated"]);

    // An endpoint stored before events existed has none: it receives submission.created, as before.
    await db().send(
      new UpdateCommand({ TableName: tableName(), Key: keys.outboundEndpoint(formId, id), UpdateExpression: "REMOVE events" }),
    );
    const list = await api("GET", base(formId), { token: owner.token });
    expect(list.body.data.outboundWebhooks.find((e: { id: string }) => e.id === id).events).toEqual(["submission.created"]);
  });

  test.each([
    [{ events: [] }, "Choose at least one event"],
    [{ events: ["submission.created", "submission.created"] }, "Each event may be listed only once"],
    [{ events: ["submission.deleted"] }, ""],
    [{ events: "submission.created" }, ""],
    [{ events: null }, ""],
  ])("events %j is 400 VALIDATION_ERROR on events, on create and update", async (body, words) => {
    const endpoint = await create(owner.token, formId, { url: "http://127.0.0.1:9/events-bad" });
    for (const res of [
      await api("POST", base(formId), { token: owner.token, body: { url: "http://127.0.0.1:9/x", ...body } }),
      await api("PUT", `${base(formId)}/${endpoint.id}`, { token: owner.token, body }),
    ]) {
      expect([res.status, res.body.error.code]).toEqual([400, "VALIDATION_ERROR"]);
      const detail = (res.body.error.details as { path: string; message: string }[]).find((d) => d.path.startsWith("events"));
      expect(detail?.message).toEqual(expect.stringContaining(words));
    }
    await api("DELETE", `${base(formId)}/${endpoint.id}`, { token: owner.token });
  });

  test("at most 10 endpoints per form; deleting one frees a slot", async () => {
    const form = (await insertForm(owner, siteId)).id;
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        api("POST", base(form), { token: owner.token, body: { url: `http://127.0.0.1:9/${i}` } }),
      ),
    );
    const statuses = made.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    const refused = made.filter((r) => r.status !== 201);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual([
      [403, "OUTBOUND_WEBHOOK_LIMIT_REACHED"],
      [403, "OUTBOUND_WEBHOOK_LIMIT_REACHED"],
    ]);
    const first = made.find((r) => r.status === 201)?.body.data.id as string;
    expect((await api("DELETE", `${base(form)}/${first}`, { token: owner.token })).status).toBe(200);
    expect((await api("POST", base(form), { token: owner.token, body: { url: "http://127.0.0.1:9/again" } })).status).toBe(201);
    expect((await api("POST", base(form), { token: owner.token, body: { url: "http://127.0.0.1:9/more" } })).status).toBe(403);
    const list = await api("GET", base(form), { token: owner.token });
    expect(list.body.data.outboundWebhooks).toHaveLength(10);
  });

  test("another organization's form, endpoint or delivery is 404", async () => {
    const endpoint = await create(owner.token, formId, { url: "http://127.0.0.1:9/private" });
    const other = await signupOwner("outbound-other");
    const otherSite = await createSite(other);
    const otherForm = (await insertForm(other, otherSite)).id;
    const paths: [string, string, unknown?][] = [
      ["GET", base(formId)],
      ["POST", base(formId), { url: "http://127.0.0.1:9/x" }],
      ["PUT", `${base(formId)}/${endpoint.id}`, { isEnabled: false }],
      ["DELETE", `${base(formId)}/${endpoint.id}`],
      ["GET", `${base(formId)}/${endpoint.id}/deliveries`],
      ["POST", `${base(formId)}/${endpoint.id}/deliveries/dlv_0000000000000000000000/retry`],
      // The other organization's own form, with this endpoint's id: still not found.
      ["PUT", `${base(otherForm)}/${endpoint.id}`, { isEnabled: false }],
      ["GET", `${base(otherForm)}/${endpoint.id}/deliveries`],
    ];
    for (const [method, path, body] of paths) {
      const res = await api(method, path, { token: other.token, ...(body ? { body } : {}) });
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 404, "NOT_FOUND"]);
    }
    // Unknown ids in the caller's own organization look the same.
    expect((await api("GET", `${base(formId)}/ep_nope/deliveries`, { token: owner.token })).status).toBe(404);
    expect((await api("POST", `${base(formId)}/${endpoint.id}/deliveries/dlv_nope/retry`, { token: owner.token })).status).toBe(
      404,
    );
    expect((await api("GET", base("form_nope"), { token: owner.token })).status).toBe(404);
    // Nothing changed.
    const list = await api("GET", base(formId), { token: owner.token });
    expect(list.body.data.outboundWebhooks.find((e: { id: string }) => e.id === endpoint.id).isEnabled).toBe(true);
  });

  test("permissions: forms.view reads, forms.edit changes; members may do both", async () => {
    const endpoint = await create(owner.token, formId, { url: "http://127.0.0.1:9/perm" });
    const viewOnly = await apiKeyWith(owner, ["forms.view"]);
    expect((await api("GET", base(formId), { token: viewOnly })).status).toBe(200);
    expect((await api("GET", `${base(formId)}/${endpoint.id}/deliveries`, { token: viewOnly })).status).toBe(200);
    const denied: [string, string, unknown?][] = [
      ["POST", base(formId), { url: "http://127.0.0.1:9/x" }],
      ["PUT", `${base(formId)}/${endpoint.id}`, { isEnabled: false }],
      ["DELETE", `${base(formId)}/${endpoint.id}`],
      ["POST", `${base(formId)}/${endpoint.id}/deliveries/dlv_0000000000000000000000/retry`],
    ];
    for (const [method, path, body] of denied) {
      const res = await api(method, path, { token: viewOnly, ...(body ? { body } : {}) });
      expect([method, path, res.status, res.body.error.code]).toEqual([method, path, 403, "INSUFFICIENT_PERMISSION"]);
    }
    const editOnly = await apiKeyWith(owner, ["forms.edit"]);
    expect((await api("GET", base(formId), { token: editOnly })).status).toBe(403);
    expect((await api("POST", base(formId), { token: editOnly, body: { url: "http://127.0.0.1:9/key" } })).status).toBe(201);

    const member = await addMember(owner, "member", "outbound-member");
    const made = await api("POST", base(formId), { token: member.token, body: { url: "http://127.0.0.1:9/member" } });
    expect(made.status).toBe(201);
    expect((await api("GET", base(formId), { token: member.token })).status).toBe(200);
    expect((await api("DELETE", `${base(formId)}/${made.body.data.id}`, { token: member.token })).status).toBe(200);
    expect((await api("GET", base(formId))).status).toBe(401);
  });

  test("deliveries of an endpoint without any are an empty page", async () => {
    const endpoint = await create(owner.token, formId, { url: "http://127.0.0.1:9/empty" });
    const res = await api("GET", `${base(formId)}/${endpoint.id}/deliveries?limit=5`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ deliveries: [], nextCursor: null });
    expect((await api("GET", `${base(formId)}/${endpoint.id}/deliveries?limit=0`, { token: owner.token })).status).toBe(400);
    expect(
      (await api("GET", `${base(formId)}/${endpoint.id}/deliveries?cursor=abc`, { token: owner.token })).body.error.code,
    ).toBe("INVALID_CURSOR");
  });
});
