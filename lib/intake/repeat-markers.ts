import { epochSeconds, sha256Hex } from "../ids";
import { idempotencyMarker, leadMarker, type Marker } from "../store/intake-markers";
import type { Webhook } from "../store/webhooks";
import type { NormalizedSubmission } from "./fields";

/** How long each repeat marker answers a repeat (docs/intake.md, "Repeats"). */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
export const LEAD_MARKER_TTL_SECONDS = 90 * 24 * 3600;

/**
 * What makes two requests under one Idempotency-Key the same request: their data fields, in any
 * order (a client that re-serializes its retry in another key order is still retrying).
 */
const requestDigest = (data: Record<string, unknown>) =>
  sha256Hex(
    JSON.stringify(
      Object.keys(data)
        .sort()
        .map((key) => [key, data[key]]),
    ),
  );

/** The markers that make a repeat answer the first submission's result: Idempotency-Key, ads lead id. */
export function repeatMarkers(
  webhook: Webhook,
  submission: NormalizedSubmission,
  idempotencyKey: string | undefined,
  now: number,
): Marker[] {
  const markers: Marker[] = [];
  if (idempotencyKey) {
    markers.push(
      idempotencyMarker(
        webhook.id,
        sha256Hex(idempotencyKey),
        epochSeconds(now) + IDEMPOTENCY_TTL_SECONDS,
        requestDigest(submission.data),
      ),
    );
  }
  if (submission.ads?.leadId) {
    // Hashed: a lead id is the sender's text, and a key may hold at most 2,048 bytes.
    markers.push(leadMarker(webhook.id, sha256Hex(submission.ads.leadId), epochSeconds(now) + LEAD_MARKER_TTL_SECONDS));
  }
  return markers;
}
