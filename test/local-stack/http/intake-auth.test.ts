import { type Account, api, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import {
  accepted,
  expectNothingStored,
  expectStatus,
  intakePath,
  intakeTarget,
  postIntake,
  updateSite,
  updateWebhook,
  webhookItem,
} from "../../support/intake";

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake");
});

const target = (label: string, webhook?: Record<string, unknown>) => intakeTarget(label, webhook, owner);

describe("authentication and states", () => {
  test("the secret is accepted in ?key= and in X-Webhook-Key", async () => {
    const t = await target("secret");
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    accepted(await postIntake(t.webhook, { json: { a: "2" }, key: null, headers: { "x-webhook-key": t.webhook.secretKey } }));
    // An empty ?key= does not hide a header that carries the secret.
    accepted(await postIntake(t.webhook, { json: { a: "3" }, key: "", headers: { "x-webhook-key": t.webhook.secretKey } }));
    await receivedSettles(t.webhook.id, 3);
  });

  test("missing secret 401 WEBHOOK_KEY_REQUIRED, wrong 401 WEBHOOK_KEY_INVALID, and nothing is stored", async () => {
    const t = await target("no-secret");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: null }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: "" }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: `${t.webhook.secretKey}x` }), 401, "WEBHOOK_KEY_INVALID");
    expectStatus(
      await postIntake(t.webhook, { json: { a: "1" }, key: null, headers: { "x-webhook-key": "inlet_whsk_wrong" } }),
      401,
      "WEBHOOK_KEY_INVALID",
    );
    // A key in an ordinary (non-advertising) body is data, not a secret.
    expectStatus(
      await postIntake(t.webhook, { json: { google_key: t.webhook.secretKey }, key: null }),
      401,
      "WEBHOOK_KEY_REQUIRED",
    );
    await expectNothingStored(t);
  });

  test("disabled 403 WEBHOOK_DISABLED, inactive site 403 SITE_INACTIVE, archived 410, and each recovers", async () => {
    const t = await target("states");
    await updateWebhook(t, { isEnabled: false });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));

    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await postIntake(t.webhook, { json: { a: "2" } }), 403, "SITE_INACTIVE");
    await updateSite(t.owner, t.siteId, { isActive: true });

    await api("DELETE", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    expectStatus(await postIntake(t.webhook, { json: { a: "3" } }), 410, "WEBHOOK_ARCHIVED");
    await updateWebhook(t, { restore: true, isEnabled: true });
    accepted(await postIntake(t.webhook, { json: { a: "4" } }));
    await receivedSettles(t.webhook.id, 2);
  });

  test("unknown 404 and permanently deleted 404", async () => {
    expectStatus(await postIntake("wh_0000000000000000000000", { json: { a: "1" }, key: "x" }), 404, "NOT_FOUND");
    expectStatus(await postIntake("not-an-id", { json: { a: "1" } }), 404, "NOT_FOUND");
    const t = await target("deleted");
    const url = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", url, { token: t.owner.token });
    expect((await api("DELETE", `${url}?permanent=true`, { token: t.owner.token })).status).toBe(200);
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 404, "NOT_FOUND");
  });

  test("a rotated secret: the old one is 401 at once, the new one works", async () => {
    const t = await target("rotate");
    accepted(await postIntake(t.webhook, { json: { a: "1" } }));
    const rotated = await api("POST", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}/rotate-secret`, {
      token: t.owner.token,
    });
    const fresh = rotated.body.data.secretKey as string;
    expectStatus(await postIntake(t.webhook, { json: { a: "2" } }), 401, "WEBHOOK_KEY_INVALID");
    accepted(await postIntake(t.webhook, { json: { a: "3" }, key: fresh }));
  });

  test("the order of checks: 404, then the body (415, 413, 400), then the secret (401), then 410, then 403", async () => {
    const t = await target("order");
    const noKey = { key: null } as const;
    // Unknown webhook: 404 whatever the body.
    expectStatus(await postIntake("wh_0000000000000000000000", { raw: "x", contentType: "text/plain" }), 404, "NOT_FOUND");
    // Body problems come before the secret: the sender learns what is wrong with its payload.
    expectStatus(await postIntake(t.webhook, { ...noKey, raw: "x", contentType: "text/plain" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "x".repeat(300_000) } }), 413, "PAYLOAD_TOO_LARGE");
    expectStatus(await postIntake(t.webhook, { ...noKey, raw: "{", contentType: "application/json" }), 400, "INVALID_BODY");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: {} }), 400, "NO_DATA_FIELDS");
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "x".repeat(10_001) } }), 400, "FIELD_VALUE_TOO_LONG");
    // Then the secret, before any state: without it nobody learns whether a webhook is archived.
    await updateWebhook(t, { isEnabled: false });
    await api("DELETE", `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`, { token: t.owner.token });
    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await postIntake(t.webhook, { ...noKey, json: { a: "1" } }), 401, "WEBHOOK_KEY_REQUIRED");
    expectStatus(await postIntake(t.webhook, { json: { a: "1" }, key: "wrong" }), 401, "WEBHOOK_KEY_INVALID");
    // Archived before disabled before an inactive site.
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 410, "WEBHOOK_ARCHIVED");
    await updateWebhook(t, { restore: true });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    expectStatus(await postIntake(t.webhook, { json: { a: "1" } }), 403, "SITE_INACTIVE");
    // A bad redirect of a refused request is not reached: the state answers first.
    expectStatus(await postIntake(t.webhook, { json: { a: "1", _redirect: "nope" } }), 403, "SITE_INACTIVE");
    await expectNothingStored(t);
  });

  test("GET ping: 200 for an active webhook, no secret needed; other states answer as a POST would", async () => {
    const t = await target("ping", { name: "Reachable" });
    const ok = await api("GET", intakePath(t.webhook.id));
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, webhook: "Reachable", status: "active" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("*");
    // A wrong secret changes nothing: the ping never reads it. A ping stores nothing.
    expect((await api("GET", `${intakePath(t.webhook.id)}?key=wrong`)).status).toBe(200);
    expect(await webhookItem(t.webhook.id)).toMatchObject({ submissionCount: 0, formId: null });

    await updateWebhook(t, { isEnabled: false });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 403, "WEBHOOK_DISABLED");
    await updateWebhook(t, { isEnabled: true });
    await updateSite(t.owner, t.siteId, { isActive: false });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 403, "SITE_INACTIVE");
    await updateSite(t.owner, t.siteId, { isActive: true });
    const url = `/api/v1/sites/${t.siteId}/webhooks/${t.webhook.id}`;
    await api("DELETE", url, { token: t.owner.token });
    const archived = await api("GET", intakePath(t.webhook.id));
    expectStatus(archived, 410, "WEBHOOK_ARCHIVED");
    expect(archived.headers.get("access-control-allow-origin")).toBe("*");
    await api("DELETE", `${url}?permanent=true`, { token: t.owner.token });
    expectStatus(await api("GET", intakePath(t.webhook.id)), 404, "NOT_FOUND");
    expectStatus(await api("GET", intakePath("wh_0000000000000000000000")), 404, "NOT_FOUND");
  });

  test("CORS: every answer carries access-control-allow-origin: *, and the preflight is answered", async () => {
    const t = await target("cors");
    const origin = { origin: "https://static.example.org" };
    const ok = await postIntake(t.webhook, { json: { a: "1" }, headers: origin });
    const redirect = await postIntake(t.webhook, { json: { a: "1", _redirect: "https://example.org/thanks" }, headers: origin });
    const errors = await Promise.all([
      postIntake(t.webhook, { json: { a: "1" }, key: null, headers: origin }),
      postIntake(t.webhook, { raw: "x", contentType: "text/plain", headers: origin }),
      postIntake(t.webhook, { raw: "{", contentType: "application/json", headers: origin }),
      postIntake(t.webhook, { json: { a: "x".repeat(300_000) }, headers: origin }),
      postIntake(t.webhook, { json: { a: "1", _redirect: "ftp://x" }, headers: origin }),
      postIntake("wh_0000000000000000000000", { json: { a: "1" }, key: "x", headers: origin }),
    ]);
    expect([ok.status, redirect.status, ...errors.map((r) => r.status)]).toEqual([200, 303, 401, 415, 400, 413, 400, 404]);
    for (const res of [ok, redirect, ...errors]) expect(res.headers.get("access-control-allow-origin")).toBe("*");

    const preflight = await api("OPTIONS", intakePath(t.webhook.id), {
      headers: {
        ...origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,x-webhook-key,idempotency-key",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe("");
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-methods")?.split(/,\s*/).sort()).toEqual(["GET", "OPTIONS", "POST"]);
    expect(preflight.headers.get("access-control-allow-headers")?.split(/,\s*/).sort()).toEqual([
      "content-type",
      "idempotency-key",
      "x-webhook-key",
    ]);
    expect(Number(preflight.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    // The preflight of an unknown webhook is answered too (it reads nothing).
    expect((await api("OPTIONS", intakePath("wh_unknown"))).status).toBe(204);
  });
});
