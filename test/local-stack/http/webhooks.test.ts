import { getForm } from "../../../lib/store/forms";
import { getItem } from "../../../lib/store/items";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { apiKeyWith, insertForm } from "../../support/fixtures";

const base = (siteId: string) => `/api/v1/sites/${siteId}/webhooks`;

async function newWebhook(account: Account, siteId: string, body: Record<string, unknown> = { name: "Contact form" }) {
  const res = await api("POST", base(siteId), { token: account.token, body });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return res.body.data as { id: string; secretKey: string; webhookUrl: string };
}

describe("inbound webhook management", () => {
  let owner: Account;
  let siteId: string;
  beforeAll(async () => {
    owner = await signupOwner("webhooks");
    siteId = await createSite(owner);
  });

  test("POST creates an active webhook and shows its secret once", async () => {
    const res = await api("POST", base(siteId), { token: owner.token, body: { name: "Landing page" } });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^wh_[0-9A-Za-z]{22}$/),
      name: "Landing page",
      source: "generic",
      isEnabled: true,
      formId: null,
      compatibility: null,
      secretKey: expect.stringMatching(/^inlet_whsk_[0-9A-Za-z]{38}$/),
      webhookUrl: `${process.env.BASE_URL}/api/v1/incoming/${data.id}`,
      createdAt: expect.any(String),
    });
    expect(data.webhookUrl).not.toContain(data.secretKey);

    const detail = await api("GET", `${base(siteId)}/${data.id}`, { token: owner.token });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toEqual({
      id: data.id,
      name: "Landing page",
      source: "generic",
      isEnabled: true,
      formId: null,
      compatibility: null,
      secretKey: `inlet_whsk_••••••••${data.secretKey.slice(-4)}`,
      submissionCount: 0,
      lastReceivedAt: null,
      archivedAt: null,
      webhookUrl: data.webhookUrl,
      createdAt: data.createdAt,
      updatedAt: data.createdAt,
    });
    const list = await api("GET", base(siteId), { token: owner.token });
    expect(list.text).not.toContain(data.secretKey.slice(11, 30));
    const listed = list.body.data.webhooks.find((w: { id: string }) => w.id === data.id);
    expect(listed).not.toHaveProperty("secretKey");
    expect(Object.keys(listed).sort()).toEqual(
      [
        "archivedAt",
        "compatibility",
        "createdAt",
        "formId",
        "id",
        "isEnabled",
        "lastReceivedAt",
        "name",
        "source",
        "submissionCount",
        "updatedAt",
        "webhookUrl",
      ].sort(),
    );
  });

  test.each(["generic", "partner_ads", "partner_automation"])("source %s is accepted", async (source) => {
    const res = await api("POST", base(siteId), { token: owner.token, body: { name: source, source } });
    expect(res.status).toBe(201);
    expect(res.body.data.source).toBe(source);
  });

  test.each([
    ["no name", {}],
    ["an empty name", { name: "" }],
    ["a 256-character name", { name: "n".repeat(256) }],
    ["an unknown source", { name: "x", source: "facebook" }],
    ["an unknown field", { name: "x", secretKey: "mine" }],
    ["a non-string name", { name: 42 }],
  ])("POST with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("POST", base(siteId), { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("the state machine: active → disabled → active → archived → restored (disabled) → active", async () => {
    const wh = await newWebhook(owner, siteId);
    const url = `${base(siteId)}/${wh.id}`;
    const put = (body: unknown) => api("PUT", url, { token: owner.token, body });

    const disabled = await put({ isEnabled: false });
    expect(disabled.status).toBe(200);
    expect(disabled.body.data).toEqual({
      id: wh.id,
      name: "Contact form",
      source: "generic",
      isEnabled: false,
      formId: null,
      compatibility: null,
      submissionCount: 0,
      lastReceivedAt: null,
      webhookUrl: wh.webhookUrl,
      updatedAt: expect.any(String),
    });
    expect((await put({ isEnabled: true })).body.data.isEnabled).toBe(true);

    const archived = await api("DELETE", url, { token: owner.token });
    expect(archived.status).toBe(200);
    expect(archived.body.data.message).toMatch(/archived/i);
    const detail = await api("GET", url, { token: owner.token });
    expect(detail.body.data.archivedAt).toEqual(expect.any(String));
    expect(detail.body.data.isEnabled).toBe(false);
    // Archiving again is harmless.
    expect((await api("DELETE", url, { token: owner.token })).status).toBe(200);

    const enableArchived = await put({ isEnabled: true });
    expect(enableArchived.status).toBe(409);
    expect(enableArchived.body.error.code).toBe("WEBHOOK_RESTORE_REQUIRED");

    const restored = await put({ restore: true });
    expect(restored.status).toBe(200);
    expect(restored.body.data.isEnabled).toBe(false);
    expect((await api("GET", url, { token: owner.token })).body.data.archivedAt).toBeNull();

    const notArchived = await put({ restore: true });
    expect(notArchived.status).toBe(409);
    expect(notArchived.body.error.code).toBe("WEBHOOK_NOT_ARCHIVED");

    expect((await put({ isEnabled: true })).body.data.isEnabled).toBe(true);
  });

  test("restore and enable in one request", async () => {
    const wh = await newWebhook(owner, siteId);
    const url = `${base(siteId)}/${wh.id}`;
    await api("DELETE", url, { token: owner.token });
    const res = await api("PUT", url, { token: owner.token, body: { restore: true, isEnabled: true, name: "Back" } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(expect.objectContaining({ isEnabled: true, name: "Back" }));
  });

  test("list filters by archived and always counts the archived ones", async () => {
    const own = await signupOwner("webhook-list");
    const site = await createSite(own);
    const a = await newWebhook(own, site, { name: "a" });
    const b = await newWebhook(own, site, { name: "b" });
    await newWebhook(own, site, { name: "c" });
    await api("DELETE", `${base(site)}/${a.id}`, { token: own.token });
    await api("DELETE", `${base(site)}/${b.id}`, { token: own.token });

    const active = await api("GET", base(site), { token: own.token });
    expect(active.body.data.webhooks.map((w: { name: string }) => w.name)).toEqual(["c"]);
    expect(active.body.data.archivedCount).toBe(2);
    const archived = await api("GET", `${base(site)}?archived=true`, { token: own.token });
    expect(archived.body.data.webhooks.map((w: { name: string }) => w.name).sort()).toEqual(["a", "b"]);
    expect(archived.body.data.archivedCount).toBe(2);
    expect((await api("GET", `${base(site)}?archived=false`, { token: own.token })).body.data.webhooks).toHaveLength(1);
    for (const value of ["yes", "1", "TRUE", ""]) {
      const bad = await api("GET", `${base(site)}?archived=${value}`, { token: own.token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    }
  });

  test("permanent deletion needs an archived webhook, then answers 404 at once", async () => {
    const wh = await newWebhook(owner, siteId);
    const url = `${base(siteId)}/${wh.id}`;
    const early = await api("DELETE", `${url}?permanent=true`, { token: owner.token });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe("WEBHOOK_NOT_ARCHIVED");
    const bad = await api("DELETE", `${url}?permanent=yes`, { token: owner.token });
    expect(bad.status).toBe(400);

    await api("DELETE", url, { token: owner.token });
    const gone = await api("DELETE", `${url}?permanent=true`, { token: owner.token });
    expect(gone.status).toBe(200);
    expect(gone.body.data.message).toMatch(/permanently deleted/i);
    expect((await api("GET", url, { token: owner.token })).status).toBe(404);
    expect((await api("PUT", url, { token: owner.token, body: { restore: true } })).status).toBe(404);
    expect((await api("DELETE", `${url}?permanent=true`, { token: owner.token })).status).toBe(404);
  });

  test("permanent deletion schedules the purge of the auto-created form and keeps builder forms", async () => {
    const own = await signupOwner("purge");
    const site = await createSite(own);
    const builder = await insertForm(own, site, { name: "Builder form" });
    const auto = await newWebhook(own, site, { name: "auto" });
    const autoForm = await insertForm(own, site, { origin: "webhook", createdByWebhookId: auto.id });
    await api("PUT", `${base(site)}/${auto.id}`, { token: own.token, body: { formId: autoForm.id } });
    const linked = await newWebhook(own, site, { name: "linked", formId: builder.id });

    for (const wh of [auto, linked]) {
      await api("DELETE", `${base(site)}/${wh.id}`, { token: own.token });
      expect((await api("DELETE", `${base(site)}/${wh.id}?permanent=true`, { token: own.token })).status).toBe(200);
    }
    const job = await getItem<{ formId: string }>(keys.purgeJob(autoForm.id));
    const purged = await getForm(autoForm.id);
    // Either the purge job is waiting or it already ran to completion.
    if (purged) {
      expect(purged.deletedAt).toEqual(expect.any(String));
      expect(job?.formId).toBe(autoForm.id);
    }
    const kept = await getForm(builder.id);
    expect(kept?.deletedAt).toBeNull();
    expect(await getItem(keys.purgeJob(builder.id))).toBeUndefined();
  });

  test("rotate-secret returns a new secret once; the masked placeholder follows it", async () => {
    const wh = await newWebhook(owner, siteId);
    const url = `${base(siteId)}/${wh.id}`;
    const rotated = await api("POST", `${url}/rotate-secret`, { token: owner.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toEqual({ secretKey: expect.stringMatching(/^inlet_whsk_/) });
    expect(rotated.body.data.secretKey).not.toBe(wh.secretKey);
    const detail = await api("GET", url, { token: owner.token });
    expect(detail.body.data.secretKey.endsWith(rotated.body.data.secretKey.slice(-4))).toBe(true);
  });

  test("formId links a form of the same site; another site's form is 404", async () => {
    const form = await insertForm(owner, siteId);
    const created = await api("POST", base(siteId), { token: owner.token, body: { name: "with form", formId: form.id } });
    expect(created.status).toBe(201);
    expect(created.body.data.formId).toBe(form.id);
    // The same form may feed two webhooks.
    const second = await api("POST", base(siteId), { token: owner.token, body: { name: "also", formId: form.id } });
    expect(second.status).toBe(201);

    const otherSite = await createSite(owner, "Other site");
    const foreignForm = await insertForm(owner, otherSite);
    const wrong = await api("POST", base(siteId), { token: owner.token, body: { name: "x", formId: foreignForm.id } });
    expect(wrong.status).toBe(404);
    const update = await api("PUT", `${base(siteId)}/${created.body.data.id}`, {
      token: owner.token,
      body: { formId: foreignForm.id },
    });
    expect(update.status).toBe(404);
    const unlink = await api("PUT", `${base(siteId)}/${created.body.data.id}`, { token: owner.token, body: { formId: null } });
    expect(unlink.body.data.formId).toBeNull();
  });

  test("a site or webhook of another organization is 404, and a webhook under the wrong site is 404", async () => {
    const wh = await newWebhook(owner, siteId);
    const intruder = await signupOwner("wh-intruder");
    const intruderSite = await createSite(intruder);
    for (const [method, path, body] of [
      ["GET", base(siteId)],
      ["POST", base(siteId), { name: "x" }],
      ["GET", `${base(siteId)}/${wh.id}`],
      ["PUT", `${base(siteId)}/${wh.id}`, { name: "x" }],
      ["DELETE", `${base(siteId)}/${wh.id}`],
      ["POST", `${base(siteId)}/${wh.id}/rotate-secret`],
      ["GET", `${base(intruderSite)}/${wh.id}`],
      ["DELETE", `${base(intruderSite)}/${wh.id}?permanent=true`],
    ] as const) {
      const res = await api(method, path, { token: intruder.token, ...(body ? { body } : {}) });
      expect([method, path, res.status]).toEqual([method, path, 404]);
    }
    const otherSite = await createSite(owner, "Second");
    expect((await api("GET", `${base(otherSite)}/${wh.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", `${base(siteId)}/${wh.id}`, { token: owner.token })).body.data.name).toBe("Contact form");
  });

  test("a site with webhooks cannot be deleted: 409 SITE_NOT_EMPTY", async () => {
    const own = await signupOwner("site-not-empty");
    const site = await createSite(own);
    const wh = await newWebhook(own, site);
    const res = await api("DELETE", `/api/v1/sites/${site}`, { token: own.token });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("SITE_NOT_EMPTY");
    await api("DELETE", `${base(site)}/${wh.id}`, { token: own.token });
    await api("DELETE", `${base(site)}/${wh.id}?permanent=true`, { token: own.token });
    expect((await api("DELETE", `/api/v1/sites/${site}`, { token: own.token })).status).toBe(200);
  });

  test("at most 50 webhooks per site, archived ones included, even under concurrent creates", async () => {
    const own = await signupOwner("wh-limit");
    const site = await createSite(own);
    const results = await Promise.all(
      Array.from({ length: 55 }, (_, i) => api("POST", base(site), { token: own.token, body: { name: `w${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(50);
    const refused = results.filter((r) => r.status === 403);
    expect(refused).toHaveLength(5);
    expect(refused[0]?.body.error.code).toBe("WEBHOOK_LIMIT_REACHED");
    const first = results.find((r) => r.status === 201)?.body.data.id as string;
    await api("DELETE", `${base(site)}/${first}`, { token: own.token });
    expect((await api("POST", base(site), { token: own.token, body: { name: "still full" } })).status).toBe(403);
    await api("DELETE", `${base(site)}/${first}?permanent=true`, { token: own.token });
    expect((await api("POST", base(site), { token: own.token, body: { name: "room again" } })).status).toBe(201);
  });
});

describe("webhook routes with API keys", () => {
  test("each route needs its permission from the spec's table", async () => {
    const own = await signupOwner("wh-keys");
    const site = await createSite(own);
    const wh = await newWebhook(own, site);
    const viewOnly = await apiKeyWith(own, ["sites.view"]);
    const editOnly = await apiKeyWith(own, ["sites.edit"]);
    const full = await apiKeyWith(own, ["sites.view", "sites.edit", "sites.delete"]);

    const routes: [string, string, string, unknown?][] = [
      ["GET", base(site), "sites.view"],
      ["GET", `${base(site)}/${wh.id}`, "sites.view"],
      ["POST", base(site), "sites.edit", { name: "by key" }],
      ["PUT", `${base(site)}/${wh.id}`, "sites.edit", { name: "renamed by key" }],
      ["POST", `${base(site)}/${wh.id}/rotate-secret`, "sites.edit"],
      ["DELETE", `${base(site)}/${wh.id}`, "sites.delete"],
    ];
    for (const [method, path, permission, body] of routes) {
      const lacking = permission === "sites.view" ? editOnly : viewOnly;
      const denied = await api(method, path, { token: lacking, ...(body ? { body } : {}) });
      expect([path, denied.status, denied.body.error?.code]).toEqual([path, 403, "INSUFFICIENT_PERMISSION"]);
      expect(denied.body.error.message).toContain(permission);
      const allowed = await api(method, path, { token: full, ...(body ? { body } : {}) });
      expect([method, path, allowed.status < 300]).toEqual([method, path, true]);
    }
    const permanent = await api("DELETE", `${base(site)}/${wh.id}?permanent=true`, { token: viewOnly });
    expect(permanent.status).toBe(403);
    expect((await api("DELETE", `${base(site)}/${wh.id}?permanent=true`, { token: full })).status).toBe(200);
  });
});
