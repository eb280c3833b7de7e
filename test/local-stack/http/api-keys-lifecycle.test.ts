import { addMember, api } from "../../support/api";
import {
  agencyOwner,
  CREATE_FIELDS,
  code,
  createKey,
  DEFAULT_PERMISSIONS,
  LIST_ITEM_FIELDS,
  SECRET,
} from "../../support/api-keys";

describe("API key lifecycle", () => {
  test("create, list, read, update, revoke and delete permanently", async () => {
    const owner = await agencyOwner("lifecycle");
    const created = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "Zapier" } });
    expect(created.status).toBe(200);
    const key = created.body.data.key;
    expect(Object.keys(key).sort()).toEqual(CREATE_FIELDS);
    expect(key).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Za-z]{22}$/),
      name: "Zapier",
      secretKey: expect.stringMatching(SECRET),
      keyPrefix: key.secretKey.slice(0, 15),
      permissions: DEFAULT_PERMISSIONS,
      rateLimitPerMin: 300,
      expiresAt: null,
      createdAt: expect.any(String),
    });
    expect(key.keyPrefix).toMatch(/^inlet_sk_[0-9A-Za-z]{6}$/);

    const listed = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(listed.status).toBe(200);
    const item = listed.body.data.keys[0];
    expect(listed.body.data.keys).toHaveLength(1);
    expect(Object.keys(item).sort()).toEqual(LIST_ITEM_FIELDS);
    expect(item).toEqual({
      id: key.id,
      name: "Zapier",
      keyPrefix: key.keyPrefix,
      permissions: DEFAULT_PERMISSIONS,
      rateLimitPerMin: 300,
      lastUsedAt: null,
      expiresAt: null,
      isRevoked: false,
      isOrphaned: false,
      createdBy: { name: "Test lifecycle", email: owner.email },
      createdAt: key.createdAt,
    });

    const read = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.data.key).toEqual(item);

    const updated = await api("PUT", `/api/v1/api-keys/${key.id}`, {
      token: owner.token,
      body: { name: "Zapier (read only)", permissions: ["sites.view", "forms.view"], rateLimitPerMin: 120 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.key).toEqual({
      ...item,
      name: "Zapier (read only)",
      permissions: ["sites.view", "forms.view"],
      rateLimitPerMin: 120,
    });

    // No response but the creation carries the secret.
    for (const res of [listed, read, updated]) {
      expect(res.text).not.toContain(key.secretKey);
      expect(res.text).not.toContain("secretKey");
      expect(res.text).not.toContain("keyHash");
    }

    const permanentWhileActive = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token });
    expect(permanentWhileActive.status).toBe(409);
    expect(code(permanentWhileActive)).toBe("API_KEY_NOT_REVOKED");

    const revoked = await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data).toEqual({ message: expect.stringMatching(/revoked/i) });
    const afterRevoke = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(afterRevoke.body.data.key.isRevoked).toBe(true);

    // Revoking again is idempotent.
    const again = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=false`, { token: owner.token });
    expect(again.status).toBe(200);

    const deleted = await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ message: expect.stringMatching(/deleted/i) });
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/api-keys/${key.id}?permanent=true`, { token: owner.token })).status).toBe(404);
    expect((await api("GET", "/api/v1/api-keys", { token: owner.token })).body.data.keys).toEqual([]);
    // A deleted key is unknown.
    const use = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(use.status).toBe(401);
    expect(code(use)).toBe("UNAUTHORIZED");
  });

  test("the list holds every key, revoked ones included, newest first", async () => {
    const owner = await agencyOwner("newest");
    const first = await createKey(owner, { name: "first" });
    const second = await createKey(owner, { name: "second" });
    const third = await createKey(owner, { name: "third" });
    await api("DELETE", `/api/v1/api-keys/${second.id}`, { token: owner.token });
    const list = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(list.body.data.keys.map((k: { name: string }) => k.name)).toEqual(["third", "second", "first"]);
    expect(list.body.data.keys.map((k: { isRevoked: boolean }) => k.isRevoked)).toEqual([false, true, false]);
    expect(list.body.data.keys[0].id).toBe(third.id);
    expect(list.body.data.keys[2].id).toBe(first.id);
  });

  test("expiresInDays sets expiresAt that many days ahead; permissions may be chosen", async () => {
    const owner = await agencyOwner("expiry", "enterprise");
    const before = Date.now();
    const key = await createKey(owner, { name: "short-lived", expiresInDays: 30, permissions: ["forms.view"] });
    const expiresAt = Date.parse(key.expiresAt as string);
    expect(expiresAt).toBeGreaterThanOrEqual(before + 30 * 86_400_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 30 * 86_400_000);
    expect(key.permissions).toEqual(["forms.view"]);
    expect(key.rateLimitPerMin).toBe(600);
    expect(key.expiresAt).toBe(new Date(expiresAt).toISOString());
    const tenYears = await createKey(owner, { name: "long", expiresInDays: 3650 });
    expect(tenYears.expiresAt).toEqual(expect.any(String));
  });

  test("an admin may manage keys too, and sees the organization's keys", async () => {
    const owner = await agencyOwner("admin-manages");
    const admin = await addMember(owner, "admin");
    const ownerKey = await createKey(owner);
    const adminKey = await createKey(admin, { name: "admin's" });
    const list = await api("GET", "/api/v1/api-keys", { token: admin.token });
    expect(list.body.data.keys.map((k: { id: string }) => k.id)).toEqual([adminKey.id, ownerKey.id]);
    expect(list.body.data.keys[0].createdBy).toEqual({ name: "Test admin", email: admin.email });
    expect((await api("DELETE", `/api/v1/api-keys/${ownerKey.id}`, { token: admin.token })).status).toBe(200);
  });
});

describe("the 25-key limit", () => {
  test("30 concurrent creates: exactly 25 succeed; revoked keys count until deleted permanently", async () => {
    const owner = await agencyOwner("limit");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: `k${i}` } })),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(25);
    expect(refused.map((r) => [r.status, code(r)])).toEqual(Array(5).fill([403, "API_KEY_LIMIT_REACHED"]));
    const list = await api("GET", "/api/v1/api-keys", { token: owner.token });
    expect(list.body.data.keys).toHaveLength(25);

    const twentySixth = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "26th" } });
    expect(twentySixth.status).toBe(403);
    expect(code(twentySixth)).toBe("API_KEY_LIMIT_REACHED");

    const victim = ok[0]?.body.data.key.id as string;
    await api("DELETE", `/api/v1/api-keys/${victim}`, { token: owner.token });
    const stillFull = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "revoked counts" } });
    expect(code(stillFull)).toBe("API_KEY_LIMIT_REACHED");

    expect((await api("DELETE", `/api/v1/api-keys/${victim}?permanent=true`, { token: owner.token })).status).toBe(200);
    const freed = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "in the freed slot" } });
    expect(freed.status).toBe(200);
    const full = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "27th" } });
    expect(code(full)).toBe("API_KEY_LIMIT_REACHED");
  });
});
