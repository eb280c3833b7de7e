import { nowIso, randomBase62 } from "../../../../lib/ids";
import { newDelivery } from "../../../../lib/outbound/deliveries";
import { newSigningSecret } from "../../../../lib/outbound/signing";
import { createDelivery, type Delivery } from "../../../../lib/store/outbound-deliveries";
import { insertEndpoint, type OutboundEndpoint } from "../../../../lib/store/outbound-endpoints";

/** An enabled endpoint of `form` at `url`, written straight into the table (no SSRF check: the receiver is on loopback). */
export async function insertTestEndpoint(
  form: { id: string; orgId: string; siteId: string },
  url: string,
): Promise<OutboundEndpoint & { signingSecret: string }> {
  const now = nowIso();
  const endpoint: OutboundEndpoint & { signingSecret: string } = {
    id: `ep_${randomBase62(22)}`,
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    url,
    description: null,
    isEnabled: true,
    signingSecret: newSigningSecret(),
    disabledReason: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  await insertEndpoint(endpoint);
  return endpoint;
}

/** A pending `submission.created` delivery of `submissionId` to `endpoint`, due now, written to the table. */
export async function insertTestDelivery(
  endpoint: OutboundEndpoint,
  submissionId: string,
  finalAttempt: number,
  overrides: Partial<Delivery> = {},
): Promise<Delivery> {
  const item: Delivery = {
    ...newDelivery(endpoint, {
      id: `dlv_${randomBase62(22)}`,
      submissionId,
      eventType: "submission.created",
      lead: { score: 50, grade: "warm", reasons: ["test"] },
      finalAttempt,
      now: nowIso(),
    }),
    ...overrides,
  };
  await createDelivery(item);
  return item;
}
