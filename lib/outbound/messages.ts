import { MAX_DELAY_SECONDS, sendToIntakeQueue } from "../aws/sqs";
import { randomBase62 } from "../ids";
import { kindAttributes } from "../queue-message";
import * as z from "../validation";

/**
 * Internal intake queue messages (not table stream records), version 1: "run attempt `attempt`
 * of delivery `deliveryId` when `dueAt` has come". Shared by the producers (queueAttempt: the
 * first attempt of a submission's delivery or a test event, the next one after a failure, a
 * replay from the API) and the consumer (lib/consumer-handlers.ts), so both sides read one
 * schema. Each is sent with the message attribute that says its kind (lib/queue-message.ts); the
 * `kind` in the body repeats it for a reader of the DLQ. A change of shape is a new `v`: accept
 * both while old messages drain.
 *
 *   {"v":1,"kind":"delivery","deliveryId":"dlv_...","attempt":2,"dueAt":"2026-01-01T00:05:00.000Z","token":"Ab3..."}
 *
 * SQS delays a message at most 15 minutes, so a retry due hours later travels as a chain: each
 * hop that arrives early is sent again with the next delay (./attempts.ts). `token` identifies
 * one logical message across its hops and redeliveries; the attempt it claims is stamped with it
 * (./attempts.ts explains why).
 */
export const INTERNAL_MESSAGE_VERSION = 1;

export const deliveryMessageSchema = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    v: z.literal(INTERNAL_MESSAGE_VERSION),
    kind: z.literal("delivery"),
    deliveryId: z.string().check(z.regex(/^dlv_[0-9A-Za-z]{22}$/)),
    /** The attempt number (1-based) this message may run. */
    attempt: z.number().check(z.int(), z.minimum(1), z.maximum(10_000)),
    dueAt: z.iso.datetime(),
    token: z.string().check(z.regex(/^[0-9A-Za-z]{1,64}$/)),
  }),
);

export type DeliveryMessage = z.output<typeof deliveryMessageSchema>;

export const newMessageToken = () => randomBase62(22);

/**
 * The DelaySeconds of a message due at `dueAt`: whole seconds until then (rounded up, so a hop
 * never arrives early), at most SQS's 900; a message that arrives before it is due is sent again
 * with the next hop's delay (./attempts.ts).
 */
export function hopDelaySeconds(dueAt: string, now: number): number {
  return Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil((Date.parse(dueAt) - now) / 1000)));
}

/**
 * Sends `message`, delayed until its `dueAt` or by SQS's 15 minutes, whichever is sooner. A new
 * attempt goes through queueAttempt; this sends a message again as it is (the next hop of a
 * chain keeps its token).
 */
export async function sendDeliveryMessage(message: DeliveryMessage, now = Date.now()): Promise<void> {
  await sendToIntakeQueue(
    JSON.stringify(deliveryMessageSchema.parse(message)),
    hopDelaySeconds(message.dueAt, now),
    kindAttributes(message.kind),
  );
}

/** Queues attempt number `attempt` of delivery `deliveryId`, due at `dueAt`, as a new message (a fresh token). */
export function queueAttempt(deliveryId: string, attempt: number, dueAt: string, now = Date.now()): Promise<void> {
  return sendDeliveryMessage(
    { v: INTERNAL_MESSAGE_VERSION, kind: "delivery", deliveryId, attempt, dueAt, token: newMessageToken() },
    now,
  );
}
