import { epochSeconds, nowIso } from "../ids";
import { log } from "../log";
import type { Form } from "../store/forms";
import {
  deleteForwardMarker,
  getForwardMarker,
  markEmailsDone,
  putForwardMarker,
  stripSubmission,
} from "../store/forward-markers";
import { type DeliveryStatus, getDelivery } from "../store/outbound-deliveries";
import { listFormEndpoints } from "../store/outbound-endpoints";
import { deliveryIdFor } from "./payload";

/**
 * Forward-only forms (docs/privacy.md, "Forward-only forms"): Inlet as a pipe. A submission of
 * such a form keeps its values only until every notification, confirmation, destination and
 * outbound delivery of it is final (sent, given up, or not applicable), and never longer than
 * FORWARD_ONLY_MAX_HOURS after the pipeline took it up. Then its values are deleted ("stripped":
 * lib/store/forward-markers.ts); the record that it arrived and where it went stays.
 *
 * The pipeline puts a marker when it takes the submission up (`startForwarding`). "Done" is
 * checked by whichever finishes last, with strongly consistent reads on both sides so one of
 * them always sees the other's write:
 * - the consumer, at the end of its run: it records the emails final on the marker, then reads
 *   the deliveries (`finishEmails`);
 * - a delivery attempt that records a final status: it reads the marker, then the deliveries
 *   (`stripIfDone`).
 * The bound is the marker's TTL: its REMOVE on the stream makes the bookkeeper strip the
 * submission whatever is still retrying (lib/bookkeeping/forward-only.ts). DynamoDB applies a TTL
 * late (within days), so the bound is also on the submission (`valuesKeptUntil`, stored with its
 * lead): past it, a delivery attempt strips the submission instead of sending it
 * (lib/outbound/attempts.ts), the consumer sends no email, and no reader shows its values
 * (`boundedValues`, lib/store/forward-markers.ts).
 */

/** The longest a forward-only submission keeps its values, whatever still retries. */
export const FORWARD_ONLY_MAX_HOURS = 72;

export const isForwardOnly = (form: Pick<Form, "settings">) => form.settings.forwardOnly === true;

/** Error of a delivery attempt whose submission's values were deleted: it ends as failed, never sends an empty event. */
export const VALUES_GONE = "the submission's values are no longer kept (forward-only form)";

const FINAL: ReadonlySet<DeliveryStatus> = new Set(["delivered", "failed"]);

/** A submission's bound: `FORWARD_ONLY_MAX_HOURS` after `startedAt` (when the event reached the pipeline: its arrival, or its release from spam). */
export const forwardBound = (startedAt: string) =>
  new Date(epochSeconds(Date.parse(startedAt)) * 1000 + FORWARD_ONLY_MAX_HOURS * 3_600_000).toISOString();

/** Puts the submission's marker, expiring at its bound (`forwardBound`). A repeat keeps the first. */
export async function startForwarding(
  submission: { id: string; formId: string; orgId: string },
  startedAt: string,
): Promise<void> {
  await putForwardMarker({
    submissionId: submission.id,
    formId: submission.formId,
    orgId: submission.orgId,
    ttl: epochSeconds(Date.parse(forwardBound(startedAt))),
    createdAt: nowIso(),
  });
}

/** The consumer's emails of the submission are final: record it, then strip if its deliveries are too. */
export async function finishEmails(submissionId: string, formId: string): Promise<void> {
  if (!(await markEmailsDone(submissionId))) return;
  if (await deliveriesFinal(submissionId, formId)) await strip(submissionId, "done");
}

/** A delivery of the submission ended: strip it if it was the last thing outstanding. */
export async function stripIfDone(submissionId: string, formId: string): Promise<void> {
  const marker = await getForwardMarker(submissionId);
  if (!marker?.emailsDone) return;
  if (await deliveriesFinal(submissionId, formId)) await strip(submissionId, "done");
}

/**
 * Whether every delivery the submission has (one per endpoint that received it, its id derived
 * from both: lib/outbound/payload.ts) is delivered or failed. An endpoint that did not receive it
 * (created after, disabled, filtered out) has none: not applicable.
 */
async function deliveriesFinal(submissionId: string, formId: string): Promise<boolean> {
  const endpoints = await listFormEndpoints(formId);
  const deliveries = await Promise.all(endpoints.map((endpoint) => getDelivery(deliveryIdFor(submissionId, endpoint.id))));
  return deliveries.every((delivery) => delivery === undefined || FINAL.has(delivery.status));
}

/**
 * Deletes the submission's values, then its marker (in that order: a crash between them leaves a
 * marker whose bound strips nothing more). Idempotent.
 */
export async function strip(submissionId: string, why: "done" | "bound"): Promise<void> {
  const outcome = await stripSubmission(submissionId, nowIso());
  if (outcome === "OK") log.info("forward-only submission's values deleted", { submissionId, why });
  if (why === "done") await deleteForwardMarker(submissionId);
}
