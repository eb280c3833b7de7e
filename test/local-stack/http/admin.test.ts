import { api, platformAdminToken, signupOwner } from "../../support/api";

describe("platform admin", () => {
  test("PLATFORM_ADMIN_EMAILS makes an account a platform admin", async () => {
    const me = await api("GET", "/api/v1/auth/me", { token: await platformAdminToken() });
    expect(me.body.data.platformAdmin).toBe(true);
  });

  test("lists organizations and changes a plan", async () => {
    const admin = await platformAdminToken();
    const owner = await signupOwner("planned");
    const list = await api("GET", "/api/v1/admin/organizations?limit=100", { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.data.organizations).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: owner.orgId, plan: "free", name: "Org planned" })]),
    );
    const changed = await api("PUT", `/api/v1/admin/organizations/${owner.orgId}`, { token: admin, body: { plan: "agency" } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.organization).toEqual(expect.objectContaining({ id: owner.orgId, plan: "agency" }));
    const me = await api("GET", "/api/v1/auth/me", { token: owner.token });
    expect(me.body.data.organization.plan).toBe("agency");
  });

  test("lists organizations newest first, page by page", async () => {
    const admin = await platformAdminToken();
    await signupOwner("page-a");
    await signupOwner("page-b");
    const first = await api("GET", "/api/v1/admin/organizations?limit=1", { token: admin });
    const second = await api("GET", `/api/v1/admin/organizations?limit=1&cursor=${first.body.data.nextCursor}`, { token: admin });
    const [a] = first.body.data.organizations;
    const [b] = second.body.data.organizations;
    expect(a.id).not.toBe(b.id);
    expect(a.createdAt >= b.createdAt).toBe(true);
  });

  test("rejects unknown plans and unknown organizations", async () => {
    const admin = await platformAdminToken();
    const owner = await signupOwner("badplan");
    const bad = await api("PUT", `/api/v1/admin/organizations/${owner.orgId}`, { token: admin, body: { plan: "gold" } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("VALIDATION_ERROR");
    const missing = await api("PUT", "/api/v1/admin/organizations/org_0000000000000000000000", {
      token: admin,
      body: { plan: "pro" },
    });
    expect(missing.status).toBe(404);
  });

  test("other accounts get 403 PLATFORM_ADMIN_REQUIRED", async () => {
    const owner = await signupOwner("notadmin");
    const list = await api("GET", "/api/v1/admin/organizations", { token: owner.token });
    expect(list.status).toBe(403);
    expect(list.body.error.code).toBe("PLATFORM_ADMIN_REQUIRED");
    const change = await api("PUT", `/api/v1/admin/organizations/${owner.orgId}`, {
      token: owner.token,
      body: { plan: "enterprise" },
    });
    expect(change.status).toBe(403);
    expect(change.body.error.code).toBe("PLATFORM_ADMIN_REQUIRED");
  });

  test("an invalid cursor is 400 INVALID_CURSOR", async () => {
    const admin = await platformAdminToken();
    for (const cursor of ["not-base64!", Buffer.from('{"gsi1pk":"ORG#x"}').toString("base64url")]) {
      const res = await api("GET", `/api/v1/admin/organizations?cursor=${cursor}`, { token: admin });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("INVALID_CURSOR");
    }
  });
});
