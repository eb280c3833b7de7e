import { resolveSession } from "../../../lib/auth/sessions";
import { newToken } from "../../../lib/auth/tokens";
import { sha256Hex } from "../../../lib/ids";
import { advanceSessionEpoch, putSessionIfCurrent } from "../../../lib/store/credentials";
import { signupOwner } from "../../support/api";

/**
 * The session epoch below the HTTP layer (lib/store/credentials.ts): a session is valid only
 * while its epoch is the member's, and ending sessions moves the member's epoch, so a session made
 * for an epoch the member has left (a sign-in that raced the change) is never stored, and an
 * ended one is never brought back.
 */

const session = (owner: { userId: string; orgId: string }, epoch: number) => ({
  userId: owner.userId,
  orgId: owner.orgId,
  epoch,
  createdAt: new Date().toISOString(),
  expiresAt: new Date(Date.now() + 3600_000).toISOString(),
});

describe("the session epoch", () => {
  test("a session made for an epoch the member has left is not stored (a sign-in that lost the race to a reset)", async () => {
    const owner = await signupOwner("epoch-stale");
    const current = await resolveSession(owner.token);
    expect(current.sessionEpoch).toBe(0);
    const late = newToken("session");
    expect(await advanceSessionEpoch({ ...owner, seen: 0, keepSessionHash: current.tokenHash })).toBe("OK");
    expect(await putSessionIfCurrent(sha256Hex(late), session(owner, 0))).toBe("STALE");
    await expect(resolveSession(late)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    // The kept session moved along; one made for the new epoch works.
    expect((await resolveSession(owner.token)).sessionEpoch).toBe(1);
    const fresh = newToken("session");
    expect(await putSessionIfCurrent(sha256Hex(fresh), session(owner, 1))).toBe("OK");
    expect((await resolveSession(fresh)).userId).toBe(owner.userId);
  });

  test("an ended session cannot end the others: its epoch is gone, so nothing is written", async () => {
    const owner = await signupOwner("epoch-revive");
    const other = newToken("session");
    expect(await putSessionIfCurrent(sha256Hex(other), session(owner, 0))).toBe("OK");
    expect(await advanceSessionEpoch({ ...owner, seen: 0, keepSessionHash: sha256Hex(owner.token) })).toBe("OK");
    // `other` was ended; its request had already resolved it (epoch 0) when it asks to end the rest.
    expect(await advanceSessionEpoch({ ...owner, seen: 0, keepSessionHash: sha256Hex(other) })).toBe("ENDED");
    await expect(resolveSession(other)).rejects.toMatchObject({ code: "SESSION_ENDED", status: 401 });
    expect((await resolveSession(owner.token)).sessionEpoch).toBe(1);
  });

  test("a kept session that was signed out meanwhile is not brought back", async () => {
    const owner = await signupOwner("epoch-gone");
    const gone = newToken("session");
    expect(await advanceSessionEpoch({ ...owner, seen: 0, keepSessionHash: sha256Hex(gone) })).toBe("ENDED");
    expect((await resolveSession(owner.token)).sessionEpoch).toBe(0);
  });
});
