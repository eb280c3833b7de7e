import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";

/**
 * A dead-letter queue: encrypted, TLS only, kept 14 days (longer than any queue that feeds it: a
 * standard queue keeps a message's original enqueue time when it is moved to its DLQ), and kept
 * if the stack is deleted or the queue replaced (what it holds was never processed). It has no
 * DLQ of its own (a DLQ of a DLQ would only move the problem): `whose` says whose it is, for the
 * cdk-nag suppression; its ApproximateNumberOfMessagesVisible alarm is the escalation path.
 */
export function deadLetterQueue(scope: Construct, id: string, whose: string): Queue {
  const queue = new Queue(scope, id, {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
  });
  NagSuppressions.addResourceSuppressions(queue, [
    {
      id: "AwsSolutions-SQS3",
      reason: `This queue is ${whose}; a DLQ of a DLQ would only move the problem. Its ApproximateNumberOfMessagesVisible alarm is the escalation path.`,
    },
  ]);
  return queue;
}
