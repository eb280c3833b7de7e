import { addMember, api, platformAdminToken, setPlan, signupOwner } from "../../support/api";

describe("PUT /v1/organization", () => {
  test("an owner renames the organization; every member's session sees the new name", async () => {
    const owner = await signupOwner("rename-owner");
    const member = await addMember(owner, "member", "rename-member");
    const renamed = await api("PUT", "/api/v1/organization", { token: owner.token, body: { name: "  Acme Leads  " } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.organization).toEqual({ id: owner.orgId, name: "Acme Leads", plan: "free" });
    const me = await api("GET", "/api/v1/auth/me", { token: member.token });
    expect(me.body.data.organization.name).toBe("Acme Leads");
    const list = await api("GET", "/api/v1/admin/organizations?limit=100", { token: await platformAdminToken() });
    expect(list.body.data.organizations).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: owner.orgId, name: "Acme Leads" })]),
    );
  });

  test("an admin may rename it; a member gets 403 ROLE_REQUIRED and nothing changes", async () => {
    const owner = await signupOwner("rename-roles");
    const admin = await addMember(owner, "admin", "rename-admin");
    const member = await addMember(owner, "member", "rename-plain");
    const byAdmin = await api("PUT", "/api/v1/organization", { token: admin.token, body: { name: "Renamed by admin" } });
    expect(byAdmin.status).toBe(200);
    const byMember = await api("PUT", "/api/v1/organization", { token: member.token, body: { name: "Renamed by member" } });
    expect(byMember.status).toBe(403);
    expect(byMember.body.error.code).toBe("ROLE_REQUIRED");
    const me = await api("GET", "/api/v1/auth/me", { token: owner.token });
    expect(me.body.data.organization.name).toBe("Renamed by admin");
  });

  test("an API key gets 403 SESSION_REQUIRED, even one that holds every permission a key may", async () => {
    const owner = await signupOwner("rename-key");
    await setPlan(owner.orgId, "agency");
    const created = await api("POST", "/api/v1/api-keys", { token: owner.token, body: { name: "all" } });
    expect(created.status).toBe(200);
    const res = await api("PUT", "/api/v1/organization", { token: created.body.data.key.secretKey, body: { name: "By key" } });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("SESSION_REQUIRED");
  });

  test.each([
    [{}, "name"],
    [{ name: "   " }, "name"],
    [{ name: "x".repeat(256) }, "name"],
    [{ name: 42 }, "name"],
    [{ name: "Ok", plan: "enterprise" }, ""],
  ])("refuses %j with 400 VALIDATION_ERROR", async (body, path) => {
    const owner = await signupOwner("rename-bad");
    const res = await api("PUT", "/api/v1/organization", { token: owner.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("VALIDATION_ERROR");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
    const me = await api("GET", "/api/v1/auth/me", { token: owner.token });
    expect(me.body.data.organization.name).toBe("Org rename-bad");
    expect(me.body.data.organization.plan).toBe("free");
  });

  test("without a session: 401", async () => {
    const res = await api("PUT", "/api/v1/organization", { body: { name: "Nobody" } });
    expect(res.status).toBe(401);
  });
});
