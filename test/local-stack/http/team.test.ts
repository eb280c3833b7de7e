import { addMember, api, signupOwner, uniqueEmail } from "../../support/api";
import { TEST_PASSWORD } from "../../support/constants";

describe("team and invites", () => {
  test("an owner invites a member who signs up into the organization with the invited role", async () => {
    const owner = await signupOwner("team-owner");
    const email = uniqueEmail("invitee");
    const invite = await api("POST", "/api/v1/team/invites", { token: owner.token, body: { email, role: "member" } });
    expect(invite.status).toBe(201);
    expect(invite.body.data).toEqual({
      inviteToken: expect.stringMatching(/^inlet_inv_/),
      inviteUrl: `${process.env.BASE_URL}/invite#token=${invite.body.data.inviteToken}`,
      email,
      role: "member",
      expiresAt: expect.any(String),
    });
    const joined = await api("POST", "/api/v1/auth/signup", {
      body: { email, password: TEST_PASSWORD, name: "Invitee", inviteToken: invite.body.data.inviteToken },
    });
    expect(joined.status).toBe(201);
    expect(joined.body.data.organization.id).toBe(owner.orgId);
    expect(joined.body.data.role).toBe("member");

    const team = await api("GET", "/api/v1/team", { token: owner.token });
    expect(team.status).toBe(200);
    expect(team.body.data.members.map((m: { email: string }) => m.email).sort()).toEqual([owner.email, email].sort());
    expect(team.body.data.members[0]).not.toHaveProperty("passwordHash");
    expect(team.body.data.nextCursor).toBeNull();

    // An invite works once.
    const reuse = await api("POST", "/api/v1/auth/signup", {
      body: { email, password: TEST_PASSWORD, name: "Again", inviteToken: invite.body.data.inviteToken },
    });
    expect(reuse.status).toBe(410);
    expect(reuse.body.error.code).toBe("INVITE_INVALID");
  });

  test("an invite is bound to its email address", async () => {
    const owner = await signupOwner("bound");
    const invite = await api("POST", "/api/v1/team/invites", {
      token: owner.token,
      body: { email: uniqueEmail("intended"), role: "admin" },
    });
    const res = await api("POST", "/api/v1/auth/signup", {
      body: { email: uniqueEmail("other"), password: TEST_PASSWORD, name: "Other", inviteToken: invite.body.data.inviteToken },
    });
    expect(res.status).toBe(410);
    expect(res.body.error.code).toBe("INVITE_INVALID");
  });

  test("the team list is cursor paginated", async () => {
    const owner = await signupOwner("paged");
    await addMember(owner, "member", "p1");
    await addMember(owner, "member", "p2");
    const first = await api("GET", "/api/v1/team?limit=2", { token: owner.token });
    expect(first.body.data.members).toHaveLength(2);
    expect(first.body.data.nextCursor).toEqual(expect.any(String));
    const second = await api("GET", `/api/v1/team?limit=2&cursor=${first.body.data.nextCursor}`, { token: owner.token });
    expect(second.body.data.members).toHaveLength(1);
    const ids = [...first.body.data.members, ...second.body.data.members].map((m: { id: string }) => m.id);
    expect(new Set(ids).size).toBe(3);
  });

  test("a member may view the team but not invite (403 ROLE_REQUIRED) or create sites (403 INSUFFICIENT_PERMISSION)", async () => {
    const owner = await signupOwner("roles");
    const member = await addMember(owner, "member");
    expect((await api("GET", "/api/v1/team", { token: member.token })).status).toBe(200);
    const invite = await api("POST", "/api/v1/team/invites", {
      token: member.token,
      body: { email: uniqueEmail(), role: "member" },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.error.code).toBe("ROLE_REQUIRED");
    const site = await api("POST", "/api/v1/sites", { token: member.token, body: { name: "Nope" } });
    expect(site.status).toBe(403);
    expect(site.body.error).toEqual({ code: "INSUFFICIENT_PERMISSION", message: expect.stringContaining("sites.create") });
  });

  test("an admin can invite, change roles and remove members; the owner is protected", async () => {
    const owner = await signupOwner("manage");
    const admin = await addMember(owner, "admin");
    const member = await addMember(admin, "member");

    const promoted = await api("PUT", `/api/v1/team/members/${member.userId}`, { token: admin.token, body: { role: "admin" } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data.member).toEqual(expect.objectContaining({ id: member.userId, role: "admin" }));
    // The new role applies to the member's existing session at once.
    const asAdmin = await api("POST", "/api/v1/team/invites", {
      token: member.token,
      body: { email: uniqueEmail(), role: "member" },
    });
    expect(asAdmin.status).toBe(201);

    const toOwner = await api("PUT", `/api/v1/team/members/${member.userId}`, { token: admin.token, body: { role: "owner" } });
    expect(toOwner.status).toBe(400);
    const ownerChange = await api("PUT", `/api/v1/team/members/${owner.userId}`, {
      token: admin.token,
      body: { role: "member" },
    });
    expect(ownerChange.status).toBe(403);
    expect(ownerChange.body.error.code).toBe("CANNOT_CHANGE_OWNER");
    const ownerRemoval = await api("DELETE", `/api/v1/team/members/${owner.userId}`, { token: admin.token });
    expect(ownerRemoval.status).toBe(403);
    expect(ownerRemoval.body.error.code).toBe("CANNOT_CHANGE_OWNER");
    const self = await api("DELETE", `/api/v1/team/members/${admin.userId}`, { token: admin.token });
    expect(self.status).toBe(409);

    const removed = await api("DELETE", `/api/v1/team/members/${member.userId}`, { token: admin.token });
    expect(removed.status).toBe(200);
    // A removed member's session stops working at once, and the email is free again.
    expect((await api("GET", "/api/v1/auth/me", { token: member.token })).status).toBe(401);
    const again = await api("DELETE", `/api/v1/team/members/${member.userId}`, { token: admin.token });
    expect(again.status).toBe(404);
    const rejoin = await api("POST", "/api/v1/auth/signup", {
      body: { email: member.email, password: TEST_PASSWORD, name: "Back", organizationName: "Own org" },
    });
    expect(rejoin.status).toBe(201);
  });

  test("members of another organization are not found", async () => {
    const owner = await signupOwner("iso-a");
    const other = await signupOwner("iso-b");
    const otherMember = await addMember(other, "member");
    const change = await api("PUT", `/api/v1/team/members/${otherMember.userId}`, {
      token: owner.token,
      body: { role: "admin" },
    });
    expect(change.status).toBe(404);
    const remove = await api("DELETE", `/api/v1/team/members/${otherMember.userId}`, { token: owner.token });
    expect(remove.status).toBe(404);
    expect((await api("GET", "/api/v1/auth/me", { token: otherMember.token })).status).toBe(200);
  });
});
