import { requestPasswordReset } from "../../../lib/password-reset";
import { signupOwner, uniqueEmail } from "../../support/api";
import { Recorder, type RecordingSummary } from "../../support/recording-client";
import { freshIp } from "../../support/spam-helpers";
import { emailsTo } from "../pipeline/support/emails";

/**
 * A password reset request below the HTTP layer (lib/password-reset.ts): whether or not an account
 * uses the address, it does the same DynamoDB work, so its timing tells nobody which addresses
 * have accounts.
 */

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
