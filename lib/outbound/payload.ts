import { createHash } from "node:crypto";
import type { Lead } from "../leads";
import type { Submission } from "../store/submissions";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * The delivery id of (submission, endpoint): `dlv_` + 22 base62 characters of their SHA-256, so
 * a redelivered submission message finds the delivery it created before (a conditional put
 * creates it once). It is also the `webhook-id` header, stable across retries, as receivers
 * dedupe on it.
 */
export function deliveryIdFor(submissionId: string, endpointId: string): string {
  let n = BigInt(`0x${createHash("sha256").update(`${submissionId}\n${endpointId}`).digest("hex")}`);
  let out = "";
  for (let i = 0; i < 22; i++) {
    out += BASE62[Number(n % 62n)];
    n /= 62n;
  }
  return `dlv_${out}`;
}

export const EVENT_TYPE = "submission.created";

/** The `submission.created` event body (docs/outbound-webhooks.md, "Payload"). */
export function submissionCreatedPayload(
  submission: Submission & { lead?: Lead | null },
  lead: Lead | null,
  timestamp: string,
): string {
  return JSON.stringify({
    type: EVENT_TYPE,
    timestamp,
    data: {
      submissionId: submission.id,
      referenceId: submission.referenceId,
      formId: submission.formId,
      siteId: submission.siteId,
      fields: submission.data,
      metadata: submission.metadata,
      spam: submission.spam,
      lead: lead ?? submission.lead ?? null,
      createdAt: submission.createdAt,
    },
  });
}
