import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { CONSUMER_HANDLERS } from "../../lib/consumer-handlers";
import { instrument } from "../../lib/metrics/invocation";
import { processMessages } from "../../lib/pipeline/batch";

/** The consumer's route in its "request done" line. */
const QUEUE_ROUTE = "queue";

/**
 * The intake queue's consumer (QUEUE_CONSUMER in functions/routes.ts): each message is one
 * table stream record (lib/pipeline/stream-record.ts) handled by its item's type, or an internal
 * message (lib/queue-message.ts) handled by its kind. The generic batch runner gets the
 * registry from here; failed messages are reported as batch item failures and come back after
 * the visibility timeout. A plain handler: none of the HTTP middleware chain applies to an SQS
 * event. Its "request done" line (docs/metrics.md) has the route `queue` and, as its status, the
 * number of messages reported failed (0: the whole batch is done).
 */
export const handler = (event: SQSEvent, context?: Pick<Context, "awsRequestId" | "functionName">): Promise<SQSBatchResponse> =>
  instrument(
    { requestId: context?.awsRequestId ?? crypto.randomUUID(), functionName: context?.functionName ?? "consumer" },
    () => processMessages(event.Records, CONSUMER_HANDLERS),
    (outcome) => ({ route: QUEUE_ROUTE, status: outcome.ok ? outcome.value.batchItemFailures.length : event.Records.length }),
  );
