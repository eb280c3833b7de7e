import { createHash } from "node:crypto";
import type { DeliveryChange } from "../store/outbound-deliveries";
import type { Lead } from "../store/shapes";
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
/** A submission's status, owner or tags changed (docs/outbound-webhooks.md, "submission.updated"). */
export const UPDATED_EVENT_TYPE = "submission.updated";

/** The test event ("Send test event"; docs/outbound-webhooks.md, "Test events"). */
export const TEST_EVENT_TYPE = "webhook.test";

/**
 * The `webhook.test` event body: a ping that names the endpoint and its form and says it is a
 * test, so a receiver can check its signature verification and routing without a lead in its
 * CRM. Receivers that switch on `type` ignore it as an unknown event.
 */
export function testEventPayload(endpoint: { id: string; formId: string; siteId: string }, timestamp: string): string {
  return JSON.stringify({
    type: TEST_EVENT_TYPE,
    timestamp,
    data: {
      test: true,
      endpointId: endpoint.id,
      formId: endpoint.formId,
      siteId: endpoint.siteId,
      message: "A test event from Inlet: your endpoint received and can verify Inlet's webhooks.",
    },
  });
}

/** The submission as every submission event carries it (`data` of `submission.created`). */
function submissionData(submission: Submission & { lead?: Lead | null }, lead: Lead | null) {
  return {
    submissionId: submission.id,
    referenceId: submission.referenceId,
    formId: submission.formId,
    siteId: submission.siteId,
    fields: submission.data,
    metadata: submission.metadata,
    spam: submission.spam,
    lead: lead ?? submission.lead ?? null,
    createdAt: submission.createdAt,
  };
}

/** The `submission.created` event body (docs/outbound-webhooks.md, "Payload"). */
export function submissionCreatedPayload(
  submission: Submission & { lead?: Lead | null },
  lead: Lead | null,
  timestamp: string,
): string {
  return JSON.stringify({ type: EVENT_TYPE, timestamp, data: submissionData(submission, lead) });
}

/** A submission's triage state as an event shows it: its status (`new` when unset), owner and tags with their names. */
export interface TriageView {
  status: string;
  ownerId: string | null;
  tags: { id: string; name: string }[];
}

/**
 * The `submission.updated` event body (docs/outbound-webhooks.md, "submission.updated"): the
 * submission as `submission.created` carries it, read when the attempt is made, with its status,
 * owner and tags then; and the change this event announces (what changed, who changed it, when).
 * `timestamp` is the change's time.
 */
export function submissionUpdatedPayload(
  submission: Submission & { lead?: Lead | null },
  lead: Lead | null,
  triage: TriageView,
  change: DeliveryChange,
): string {
  return JSON.stringify({
    type: UPDATED_EVENT_TYPE,
    timestamp: change.at,
    data: {
      ...submissionData(submission, lead),
      ...triage,
      changeId: change.id,
      changedAt: change.at,
      changes: change.changes,
      actor: change.actor,
    },
  });
}
