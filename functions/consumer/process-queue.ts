import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { processMessages } from "../../lib/pipeline/batch";
import { CONSUMER_HANDLERS } from "../../lib/pipeline/record-handlers";

/**
 * The intake queue's consumer (QUEUE_CONSUMER in functions/routes.ts): each message is one
 * table stream record (lib/pipeline/stream-record.ts) handled by its item's type, or an internal
 * message (lib/pipeline/queue-message.ts) handled by its kind. The generic batch runner gets the
 * registry from here; failed messages are reported as batch item failures and come back after
 * the visibility timeout. A plain handler: none of the HTTP middleware chain applies to an SQS
 * event.
 */
export const handler = (event: SQSEvent): Promise<SQSBatchResponse> => processMessages(event.Records, CONSUMER_HANDLERS);
