import type { Permission } from "../../../lib/auth/permissions";
import type { Principal } from "../../../lib/auth/principal";
import { SUBMISSION_STATUSES } from "../../../lib/store/shapes";
import { ownerChangeAllowed, planTriage, triageOf } from "../../../lib/triage";

const member = (permissions: Permission[] = ["forms.edit"]): Principal => ({
  kind: "session",
  tokenHash: "h",
  sessionEpoch: 0,
  userId: "usr_me",
  orgId: "org_1",
  email: "me@example.com",
  emailVerified: true,
  emailLost: false,
  name: "Me",
  role: "member",
  plan: "pro",
  organizationName: "Org",
  platformAdmin: false,
  permissions: new Set(permissions),
});
const key = (permissions: Permission[]): Principal => ({
  kind: "apiKey",
  keyId: "key_1",
  name: "Test key",
  orgId: "org_1",
  plan: "agency",
  permissions: new Set(permissions),
  responseHeaders: {},
});

describe("status transitions", () => {
  test("every move is allowed but a closed lead back to new; the same status is no change", () => {
    for (const from of SUBMISSION_STATUSES) {
      for (const to of SUBMISSION_STATUSES) {
        const plan = planTriage(member(), triageOf({ status: from }), { status: to });
        if (to === from) expect(plan).toEqual({ next: { status: from, ownerId: null, tags: [] }, changes: {} });
        else if (to === "new" && (from === "won" || from === "lost")) expect(plan).toEqual({ refused: "INVALID_STATUS_CHANGE" });
        else expect(plan).toMatchObject({ changes: { status: { from, to } } });
      }
    }
  });
});

describe("owner rules", () => {
  test("a member takes an unowned lead and gives up their own; nothing else without submissions.delete", () => {
    const me = member();
    expect(ownerChangeAllowed(me, null, "usr_me")).toBe(true);
    expect(ownerChangeAllowed(me, "usr_me", null)).toBe(true);
    expect(ownerChangeAllowed(me, null, "usr_other")).toBe(false);
    expect(ownerChangeAllowed(me, "usr_other", "usr_me")).toBe(false);
    expect(ownerChangeAllowed(me, "usr_other", null)).toBe(false);
    expect(ownerChangeAllowed(me, "usr_me", "usr_other")).toBe(false);
    expect(ownerChangeAllowed(member(["forms.edit", "submissions.delete"]), "usr_other", "usr_third")).toBe(true);
  });

  test("an API key has no self: every owner change needs submissions.delete", () => {
    expect(ownerChangeAllowed(key(["forms.edit"]), null, "usr_me")).toBe(false);
    expect(ownerChangeAllowed(key(["forms.edit"]), "usr_me", null)).toBe(false);
    expect(ownerChangeAllowed(key(["forms.edit", "submissions.delete"]), null, "usr_me")).toBe(true);
  });
});

describe("tags", () => {
  test("added and removed are what changed; at most 10; removing one it does not have is no change", () => {
    const current = triageOf({ tags: ["tag_a", "tag_b"] });
    expect(planTriage(member(), current, { addTags: ["tag_b", "tag_c"], removeTags: ["tag_a", "tag_z"] })).toEqual({
      next: { status: "new", ownerId: null, tags: ["tag_b", "tag_c"] },
      changes: { tags: { added: ["tag_c"], removed: ["tag_a"] } },
    });
    expect(planTriage(member(), current, { removeTags: ["tag_z"] })).toMatchObject({ changes: {} });
    const ten = triageOf({ tags: Array.from({ length: 10 }, (_, i) => `tag_${i}`) });
    expect(planTriage(member(), ten, { addTags: ["tag_new"] })).toEqual({ refused: "TOO_MANY_TAGS" });
    expect(planTriage(member(), ten, { addTags: ["tag_new"], removeTags: ["tag_0"] })).toMatchObject({
      changes: { tags: { added: ["tag_new"], removed: ["tag_0"] } },
    });
  });
});
