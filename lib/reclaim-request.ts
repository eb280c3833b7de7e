import { sendToIntakeQueue } from "./aws/sqs";
import { checkedInvite, throttleEmailLinks } from "./email-links";
import { randomBase62, sha256Hex } from "./ids";
import { kindAttributes } from "./queue-message";
import { getInvite } from "./store/invites";
import { ROLES } from "./store/shapes";
import * as z from "./validation";

/**
 * `POST /auth/reclaim-email` queues its work (docs/accounts.md, "How the real owner gets a
 * squatted address back"): whether an unverified account holds the address, and the link and
 * email that follow, are decided by the queue's consumer (./reclaim-link.ts). So every answer
 * does the same work before it returns (count the request, queue one message), and neither its
 * content nor its timing tells a stranger whether, or how, the address is held.
 *
 * The message, version 1, with the attribute `inlet-message-kind: reclaim-email`:
 *
 *   {"v":1,"kind":"reclaim-email","email":"ada@example.com","token":"Ab3...","invite":{"hash":"5e88...","orgId":"org_...","role":"member"}}
 *
 * `invite`: the request came from an invite to that address (it was checked before queueing), so
 * the link joins the invite's organization. `token` names the request: the consumer's claim on it
 * (lib/pipeline/once.ts) makes a redelivered message send nothing twice.
 */
export const reclaimMessageSchema = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    v: z.literal(1),
    kind: z.literal("reclaim-email"),
    email: z.string().check(z.minLength(3), z.maxLength(254)),
    token: z.string().check(z.regex(/^[0-9A-Za-z]{1,64}$/)),
    invite: z.optional(
      z.strictObject({
        hash: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
        orgId: z.string().check(z.minLength(1), z.maxLength(64)),
        role: z.enum(ROLES),
      }),
    ),
  }),
);

export type ReclaimMessage = z.output<typeof reclaimMessageSchema>;

export async function requestReclaim(input: { email: string; inviteToken?: string | undefined }): Promise<{ email: string }> {
  const email = input.email.toLowerCase();
  await throttleEmailLinks("reclaim-email", email);
  const message: ReclaimMessage = { v: 1, kind: "reclaim-email", email, token: randomBase62(22) };
  if (input.inviteToken !== undefined) {
    // The invite is the caller's own input: checking it tells nothing about the address's holder.
    const hash = sha256Hex(input.inviteToken);
    const invite = checkedInvite(await getInvite(hash), email);
    message.invite = { hash, orgId: invite.orgId, role: invite.role };
  }
  await sendToIntakeQueue(JSON.stringify(reclaimMessageSchema.parse(message)), 0, kindAttributes(message.kind));
  return { email };
}
