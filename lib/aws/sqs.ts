import { SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { loadConfig } from "../config";
import { traceClient } from "./tracing";

let client: SQSClient | undefined;

/** The process's SQS client, built once from config (module scope, reused across invocations). */
function sqs(): SQSClient {
  if (!client) {
    const config = loadConfig();
    client = new SQSClient({
      region: config.AWS_REGION,
      ...(config.SQS_ENDPOINT ? { endpoint: config.SQS_ENDPOINT } : {}),
    });
    traceClient(client, client, config.TRACING === "on");
  }
  return client;
}

/** SQS refuses a DelaySeconds above 15 minutes (https://docs.aws.amazon.com/AWSSimpleQueueService/latest/APIReference/API_SendMessage.html). */
export const MAX_DELAY_SECONDS = 900;

/**
 * Sends one message to the intake queue (QUEUE_URL: routes and the consumer with `queue: "send"`),
 * with string message attributes (lib/queue-message.ts names the attribute that marks internal messages).
 */
export async function sendToIntakeQueue(
  body: string,
  delaySeconds: number,
  attributes: Record<string, string> = {},
): Promise<void> {
  const queueUrl = loadConfig().QUEUE_URL;
  if (!queueUrl) throw new Error('QUEUE_URL is not set: the function needs queue: "send" in functions/routes.ts');
  const delay = Math.max(0, Math.min(MAX_DELAY_SECONDS, Math.ceil(delaySeconds)));
  const messageAttributes = Object.fromEntries(
    Object.entries(attributes).map(([name, value]) => [name, { DataType: "String", StringValue: value }]),
  );
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl,
      MessageBody: body,
      DelaySeconds: delay,
      ...(Object.keys(messageAttributes).length > 0 ? { MessageAttributes: messageAttributes } : {}),
    }),
  );
}
