import { addMember, api, createSite, signupOwner } from "../../support/api";

describe("sites", () => {
  test("create, read, list, update and delete a site", async () => {
    const owner = await signupOwner("sites");
    const created = await api("POST", "/api/v1/sites", {
      token: owner.token,
      body: { name: "Acme Corp", domain: "WWW.Acme.com " },
    });
    expect(created.status).toBe(201);
    const site = created.body.data.site;
    expect(site).toEqual({
      id: expect.stringMatching(/^site_[0-9A-Za-z]{22}$/),
      name: "Acme Corp",
      domain: "www.acme.com",
      isActive: true,
      referencePrefix: "ACME",
      captcha: null,
      // Inbox kept, spam 30 days, until set (docs/privacy.md, "Retention").
      defaultRetention: { inboxDays: null, spamDays: 30 },
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });

    const read = await api("GET", `/api/v1/sites/${site.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(read.body.data.site).toEqual(site);

    const list = await api("GET", "/api/v1/sites", { token: owner.token });
    expect(list.body.data).toEqual({ sites: [site], nextCursor: null });

    const updated = await api("PUT", `/api/v1/sites/${site.id}`, {
      token: owner.token,
      body: { name: "Acme", domain: null, isActive: false, referencePrefix: "ACM2" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.site).toEqual(
      expect.objectContaining({ name: "Acme", domain: null, isActive: false, referencePrefix: "ACM2" }),
    );
    expect(updated.body.data.site.updatedAt > site.updatedAt).toBe(true);

    const deleted = await api("DELETE", `/api/v1/sites/${site.id}`, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.data.message).toEqual(expect.any(String));
    expect((await api("GET", `/api/v1/sites/${site.id}`, { token: owner.token })).status).toBe(404);
    expect((await api("DELETE", `/api/v1/sites/${site.id}`, { token: owner.token })).status).toBe(404);
  });

  test("the default reference prefix comes from the name, else SUB", async () => {
    const owner = await signupOwner("prefix");
    const short = await api("POST", "/api/v1/sites", { token: owner.token, body: { name: "é!" } });
    expect(short.body.data.site.referencePrefix).toBe("SUB");
    const long = await api("POST", "/api/v1/sites", { token: owner.token, body: { name: "my landing page" } });
    expect(long.body.data.site.referencePrefix).toBe("MYLA");
  });

  test("the captcha secret is write-only", async () => {
    const owner = await signupOwner("captcha");
    const siteId = await createSite(owner);
    const missingSecret = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "score", siteKey: "site-key" } },
    });
    expect(missingSecret.status).toBe(400);
    expect(missingSecret.body.error.details).toEqual([expect.objectContaining({ path: "captcha.secretKey" })]);

    const set = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "score", siteKey: "site-key", secretKey: "very-secret-value", minScore: 0.7 } },
    });
    expect(set.status).toBe(200);
    expect(set.body.data.site.captcha).toEqual({ provider: "score", siteKey: "site-key", minScore: 0.7, hasSecretKey: true });
    expect(set.text).not.toContain("very-secret-value");

    // Changing the provider without a secret keeps the stored one.
    const challenge = await api("PUT", `/api/v1/sites/${siteId}`, {
      token: owner.token,
      body: { captcha: { provider: "challenge", siteKey: "other-key" } },
    });
    expect(challenge.body.data.site.captcha).toEqual({ provider: "challenge", siteKey: "other-key", hasSecretKey: true });
    for (const path of [`/api/v1/sites/${siteId}`, "/api/v1/sites"]) {
      const res = await api("GET", path, { token: owner.token });
      expect(res.text).not.toContain("very-secret-value");
    }

    const cleared = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body: { captcha: null } });
    expect(cleared.body.data.site.captcha).toBeNull();
  });

  test.each([
    ["an empty name", { name: "" }],
    ["a URL as domain", { domain: "https://example.com/path" }],
    ["a lower-case reference prefix", { referencePrefix: "abc" }],
    ["a one-character reference prefix", { referencePrefix: "A" }],
    ["a non-boolean isActive", { isActive: "yes" }],
    ["a minScore above 1", { captcha: { provider: "score", siteKey: "k", secretKey: "s", minScore: 1.5 } }],
    ["an unknown captcha provider", { captcha: { provider: "magic", siteKey: "k", secretKey: "s" } }],
    ["an unknown field", { ownerId: "usr_x" }],
  ])("an update with %s is 400 VALIDATION_ERROR", async (_label, body) => {
    const owner = await signupOwner("site-validation");
    const siteId = await createSite(owner);
    const res = await api("PUT", `/api/v1/sites/${siteId}`, { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });

  test("a site of another organization is 404 on every route, never 403", async () => {
    const owner = await signupOwner("site-owner");
    const intruder = await signupOwner("site-intruder");
    const siteId = await createSite(owner);
    for (const [method, body] of [["GET"], ["PUT", { name: "Mine now" }], ["DELETE"]] as const) {
      const res = await api(method, `/api/v1/sites/${siteId}`, { token: intruder.token, ...(body ? { body } : {}) });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe("NOT_FOUND");
    }
    const list = await api("GET", "/api/v1/sites", { token: intruder.token });
    expect(list.body.data.sites).toEqual([]);
    expect((await api("GET", `/api/v1/sites/${siteId}`, { token: owner.token })).body.data.site.name).toBe("Test site");
  });

  test("a cursor from another organization's list is refused", async () => {
    const owner = await signupOwner("cursor-a");
    await createSite(owner, "one");
    await createSite(owner, "two");
    const page = await api("GET", "/api/v1/sites?limit=1", { token: owner.token });
    expect(page.body.data.nextCursor).toEqual(expect.any(String));
    const intruder = await signupOwner("cursor-b");
    const res = await api("GET", `/api/v1/sites?limit=1&cursor=${page.body.data.nextCursor}`, { token: intruder.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("INVALID_CURSOR");
    const next = await api("GET", `/api/v1/sites?limit=1&cursor=${page.body.data.nextCursor}`, { token: owner.token });
    expect(next.body.data.sites).toHaveLength(1);
    expect(next.body.data.sites[0].id).not.toBe(page.body.data.sites[0].id);
  });

  test.each(["0", "101", "abc", "1.5"])("limit=%s is 400 VALIDATION_ERROR", async (limit) => {
    const owner = await signupOwner("limits");
    const res = await api("GET", `/api/v1/sites?limit=${limit}`, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
  });

  test("members can read sites but not change or delete them", async () => {
    const owner = await signupOwner("site-member");
    const siteId = await createSite(owner);
    const member = await addMember(owner, "member");
    expect((await api("GET", `/api/v1/sites/${siteId}`, { token: member.token })).status).toBe(200);
    const put = await api("PUT", `/api/v1/sites/${siteId}`, { token: member.token, body: { name: "x" } });
    expect(put.status).toBe(403);
    expect(put.body.error.message).toContain("sites.edit");
    const del = await api("DELETE", `/api/v1/sites/${siteId}`, { token: member.token });
    expect(del.status).toBe(403);
    expect(del.body.error.message).toContain("sites.delete");
  });
});
