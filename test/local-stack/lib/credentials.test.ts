import { resolveSession } from "../../../lib/auth/sessions";
import { newToken } from "../../../lib/auth/tokens";
import { sha256Hex } from "../../../lib/ids";
import { requestPasswordReset } from "../../../lib/password-reset";
import { advanceSessionEpoch, putSessionIfCurrent } from "../../../lib/store/credentials";
import { signupOwner, uniqueEmail } from "../../support/api";
import { Recorder, type RecordingSummary } from "../../support/recording-client";
import { freshIp } from "../../support/spam-helpers";
import { emailsTo } from "../pipeline/support/emails";

/** Issue 23, section 4, below the HTTP layer: the session epoch and the reset request's work. */

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

describe("a reset request does the same work whether or not an account uses the address", () => {
  /** The calls in the order their round trips happen: depth, operation, partition prefix of each item. */
  const shape = (summary: RecordingSummary) =>
    summary.calls
      .map((call) => `${call.depth} ${call.command} ${call.keys.map((k) => k.slice(0, k.indexOf("#") + 1)).join(",")}`)
      .sort();

  test("the same DynamoDB calls, round trips and write units, and one email each", async () => {
    const owner = await signupOwner("same-work");
    const nobody = uniqueEmail("same-work-nobody");
    const recorder = new Recorder();
    let known: Awaited<ReturnType<Recorder["run"]>>;
    let unknown: Awaited<ReturnType<Recorder["run"]>>;
    try {
      known = await recorder.run(() => requestPasswordReset({ email: owner.email, sourceIp: freshIp() }));
      unknown = await recorder.run(() => requestPasswordReset({ email: nobody, sourceIp: freshIp() }));
    } finally {
      recorder.uninstall();
    }
    expect(shape(known.summary)).toEqual([
      "1 BatchGetItem EMAIL#",
      "1 UpdateItem COUNTER#",
      "1 UpdateItem COUNTER#",
      "2 PutItem VERIFY#",
    ]);
    expect(shape(unknown.summary)).toEqual(shape(known.summary));
    expect(unknown.summary.sequentialRoundTrips).toBe(known.summary.sequentialRoundTrips);
    expect(unknown.summary.wcu).toBe(known.summary.wcu);
    expect(unknown.result).toEqual({ email: nobody });
    // One email each: the link to the account's address, a note to the other.
    const sent = async (to: string) => (await emailsTo(to)).filter((e) => e.subject === "Reset your Inlet password");
    for (let i = 0; i < 50 && ((await sent(owner.email)).length === 0 || (await sent(nobody)).length === 0); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await sent(owner.email)).map((e) => /reset-password#token=/.test(e.body.text ?? ""))).toEqual([true]);
    expect((await sent(nobody)).map((e) => /reset-password#token=/.test(e.body.text ?? ""))).toEqual([false]);
  });
});
