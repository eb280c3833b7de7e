import { handler } from "../../../functions/consumer/process-queue";
import { randomBase62 } from "../../../lib/ids";
import { api, emailedLinkToken, signupOwner, uniqueEmail } from "../../support/api";
import { TEST_PASSWORD } from "../../support/constants";
import { emailsTo } from "./support/emails";
import { internalSqsRecord, sqsEvent } from "./support/records";

/**
 * The consumer's side of POST /auth/reclaim-email (lib/reclaim-link.ts), with real SQS event
 * shapes: a link only for an address an unverified account holds, once per request however often
 * its message arrives, and a malformed message failed, never guessed at.
 */

const message = (email: string, token = randomBase62(22)) => ({ v: 1, kind: "reclaim-email", email, token });

test("a redelivered request sends its link once; an address nobody or a verified account holds gets nothing", async () => {
  const held = uniqueEmail("reclaim-held");
  const signup = await api("POST", "/api/v1/auth/signup", {
    body: { email: held, password: TEST_PASSWORD, name: "Holder", organizationName: "Held" },
  });
  expect(signup.status).toBe(201);
  const verified = await signupOwner("reclaim-verified");
  const link = await emailedLinkToken(verified.email);
  expect((await api("POST", "/api/v1/auth/verify-email", { token: verified.token, body: { token: link } })).status).toBe(200);
  const nobody = uniqueEmail("reclaim-nobody");

  const request = message(held);
  for (let i = 0; i < 2; i++) {
    const answer = await handler(
      sqsEvent([internalSqsRecord(request), internalSqsRecord(message(verified.email)), internalSqsRecord(message(nobody))]),
    );
    expect(answer.batchItemFailures).toEqual([]);
  }
  const toHeld = await emailsTo(held);
  expect(toHeld.map((e) => e.subject)).toEqual(["Confirm your email address for Inlet", "Take back your email address on Inlet"]);
  expect(await emailsTo(verified.email)).toHaveLength(1);
  expect(await emailsTo(nobody)).toHaveLength(0);
});

test("a message that is not a reclaim request of this version fails alone", async () => {
  const good = message(uniqueEmail("reclaim-good"));
  const records = [
    internalSqsRecord({ ...message(uniqueEmail()), v: 2 }),
    internalSqsRecord({ ...message(uniqueEmail()), invite: { hash: "nope", orgId: "o", role: "member" } }),
    internalSqsRecord(good),
  ];
  const answer = await handler(sqsEvent(records));
  expect(answer.batchItemFailures.map((f) => f.itemIdentifier).sort()).toEqual(
    [records[0]?.messageId, records[1]?.messageId].sort(),
  );
});
