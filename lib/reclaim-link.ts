import { sendEmail } from "./aws/ses";
import { loadConfig } from "./config";
import { newEmailLink } from "./email-links";
import { nowIso } from "./ids";
import { accountEmail } from "./notifications/account-email";
import { once } from "./pipeline/once";
import { type RetryLater, retryLater } from "./queue-message";
import type { ReclaimMessage } from "./reclaim-request";
import { getEmailClaimWithOrganization } from "./store/email-claims";
import { putEmailToken } from "./store/email-links";

/**
 * The consumer's side of a reclaim request (./reclaim-request.ts): when an account that never
 * verified the address holds it, a reclaim link goes to the address; otherwise nothing is sent
 * (the request's answer was the same either way). An email SES refuses fails the message, which
 * is retried, so the person who asked gets their link.
 */
export async function handleReclaimMessage(message: ReclaimMessage): Promise<RetryLater | undefined> {
  const outcome = await once(`reclaim_${message.token}`, "reclaim-email", async () => {
    const { email, invite } = message;
    const { claim, organization: org } = await getEmailClaimWithOrganization(email, invite?.orgId);
    if (!claim || claim.verifiedAt) return;
    const joins = invite && org ? { hash: invite.hash, organizationName: org.name, role: invite.role } : undefined;
    const link = newEmailLink("reclaim", { ...claim, email }, nowIso(), joins ? { invite: joins } : {});
    await putEmailToken(link.tokenHash, link.item);
    const config = loadConfig();
    const content = accountEmail("reclaim", email, link.token, config.BASE_URL, config.EMAIL_LINK_TTL_HOURS, { invite: joins });
    await sendEmail({ ...content, kind: "reclaim" });
  });
  return outcome === "busy" ? retryLater("another consumer is handling this reclaim request") : undefined;
}
