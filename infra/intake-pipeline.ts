import { Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { CfnPipe } from "aws-cdk-lib/aws-pipes";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { QUEUE_CONSUMER } from "../functions/routes";
import { deadLetterQueue } from "./dead-letter-queue";
import { bindImports, bindQueue, bindTable, settingsFromContext } from "./environment";
import { InletFunction } from "./inlet-function";
import { INTAKE_FILTER_PATTERNS } from "./intake-filter";
import { addEmailEvents, bindNotifications, type EmailEvents } from "./notifications";
import { MAX_FILTERS } from "./stream-filter-match";
import { grantOf } from "./table-grants";

/**
 * How long Lambda may wait to fill a batch of QUEUE_CONSUMER.batchSize messages: short, so a
 * lone submission is handled within about a second, yet under load batches arrive full (at 50
 * submissions a second, 0.1 consumer invocation and about 0.3 SQS requests per submission
 * besides the pipe's send: docs/performance.md, section 14). The local queue poller waits the same
 * (infra/local/stack.ts).
 */
export const CONSUMER_MAX_BATCHING_WINDOW_SECONDS = QUEUE_CONSUMER.batchingWindowSeconds;

/**
 * AWS recommends a visibility timeout of at least six times the consuming function's timeout,
 * so a message is not handed to a second consumer while throttled retries of the first batch are
 * still running (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html). The
 * timeout is the consumer's entry in functions/routes.ts (CONSUMER_TIMEOUT_SECONDS,
 * lib/pipeline/consumer.ts), so the two cannot drift apart.
 */
export const INTAKE_VISIBILITY_TIMEOUT_SECONDS = 6 * QUEUE_CONSUMER.timeoutSeconds;

/**
 * At most this many consumer instances at once (the event source's maximum concurrency, 2 to
 * 1000). Every function of the stack shares the account's regional concurrency quota, which a new
 * account may have as low as 10: without a cap a burst of intake would scale the consumer up and
 * leave the API's functions throttled. Five drains 50 messages per batch round, far beyond the
 * plans' volumes; docs/operations.md ("Concurrency") says how to check and raise the quota.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-scaling.html#events-sqs-max-concurrency
 */
export const CONSUMER_MAX_CONCURRENCY = 5;

/** Receives before a message moves to the DLQ: a few retries, then a human looks at it. */
export const INTAKE_MAX_RECEIVE_COUNT = 5;

/** Stream records the pipe reads per batch (kept within 1..10: a failed batch is retried whole). */
export const PIPE_BATCH_SIZE = 10;

/** Delivery retries before the pipe gives a record to the DLQ (-1 would retry forever). */
export const PIPE_MAX_RETRY_ATTEMPTS = 10;

export interface IntakePipelineProps {
  /** The table whose stream (NEW_AND_OLD_IMAGES) feeds the queue. */
  table: ITable;
  /** The exports bucket, whose `imports/` the consumer reads (QUEUE_CONSUMER.imports). */
  exportBucket?: IBucket;
}

/**
 * Table stream → EventBridge Pipe (the records INTAKE_FILTER_PATTERNS passes) → intake queue →
 * the consumer function, which reports partial batch failures. Messages the consumer fails
 * INTAKE_MAX_RECEIVE_COUNT times, and stream records the pipe cannot deliver, land in the DLQ;
 * an alarm fires as soon as it holds one, another when the consumer itself fails.
 */
export class IntakePipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly pipe: CfnPipe;
  readonly deadLetterAlarm: Alarm;
  readonly consumer: InletFunction;
  readonly consumerErrorAlarm: Alarm;
  /** The SES event handling, with its dead-letter queue and alarms (infra/notifications.ts). */
  readonly emailEvents: EmailEvents | undefined;

  constructor(scope: Construct, id: string, props: IntakePipelineProps) {
    super(scope, id);
    const streamArn = props.table.tableStreamArn;
    if (!streamArn) throw new Error("IntakePipeline needs a table with a stream");
    if (INTAKE_FILTER_PATTERNS.length > MAX_FILTERS) {
      throw new Error(`A pipe takes at most ${MAX_FILTERS} filter patterns (INTAKE_FILTER_PATTERNS)`);
    }

    // Both queues hold undelivered submissions: kept if the stack is deleted or they are replaced,
    // removed only when the stack's first create rolls back (nothing can be in them yet).
    this.deadLetterQueue = deadLetterQueue(this, "QueueDeadLetter", "the dead-letter queue of the intake queue and of the pipe");

    this.queue = new Queue(this, "QueueIntake", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: Duration.seconds(INTAKE_VISIBILITY_TIMEOUT_SECONDS),
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: INTAKE_MAX_RECEIVE_COUNT },
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });

    const pipeLogGroup = new LogGroup(this, "LogGroupPipe", {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    const pipeRole = new Role(this, "RolePipe", {
      // Confused-deputy guard: only pipes of this account may assume the role.
      assumedBy: new ServicePrincipal("pipes.amazonaws.com", {
        conditions: { StringEquals: { "aws:SourceAccount": Stack.of(this).account } },
      }),
      description: "Execution role of the table stream to intake queue pipe",
    });
    props.table.grantStreamRead(pipeRole);
    this.queue.grantSendMessages(pipeRole);
    this.deadLetterQueue.grantSendMessages(pipeRole);
    pipeLogGroup.grantWrite(pipeRole);
    NagSuppressions.addResourceSuppressions(
      pipeRole,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "table.grantStreamRead adds dynamodb:ListStreams, which EventBridge Pipes requires for a DynamoDB stream source (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-permissions.html) and which supports no resource-level permission, so its resource must be '*'. All other stream actions are scoped to this table's stream ARN.",
          appliesTo: ["Resource::*"],
        },
      ],
      true,
    );

    this.pipe = new CfnPipe(this, "Pipe", {
      description: "Table stream records the intake filters pass → intake queue",
      roleArn: pipeRole.roleArn,
      source: streamArn,
      sourceParameters: {
        dynamoDbStreamParameters: {
          // The queue must see every submission the stream still holds (24 h), not only new ones.
          startingPosition: "TRIM_HORIZON",
          batchSize: PIPE_BATCH_SIZE,
          maximumRetryAttempts: PIPE_MAX_RETRY_ATTEMPTS,
          // Stream records expire after 24 h anyway; give up on older ones explicitly.
          maximumRecordAgeInSeconds: 24 * 60 * 60,
          deadLetterConfig: { arn: this.deadLetterQueue.queueArn },
        },
        // ORed: a record is sent when any pattern matches.
        filterCriteria: { filters: INTAKE_FILTER_PATTERNS.map((pattern) => ({ pattern: JSON.stringify(pattern) })) },
      },
      target: this.queue.queueArn,
      logConfiguration: {
        level: "ERROR",
        cloudwatchLogsLogDestination: { logGroupArn: pipeLogGroup.logGroupArn },
      },
    });
    // The pipe validates its role's permissions when it is created.
    this.pipe.node.addDependency(pipeRole);

    this.deadLetterAlarm = new Alarm(this, "AlarmDeadLetter", {
      alarmDescription:
        "The intake DLQ holds messages: submissions the consumer failed repeatedly, or stream records the pipe could not deliver. See docs/operations.md (Alarms).",
      metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: "Maximum",
      }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });

    this.consumer = new InletFunction(this, "FunctionConsumer", {
      handler: QUEUE_CONSUMER.handler,
      description: "Inlet intake queue consumer",
      memoryMb: QUEUE_CONSUMER.memoryMb,
      timeoutSeconds: QUEUE_CONSUMER.timeoutSeconds,
      environment: settingsFromContext(this),
    });
    bindTable(this.consumer.fn, props.table, grantOf(QUEUE_CONSUMER));
    bindImports(this.consumer.fn, props.exportBucket, QUEUE_CONSUMER.imports);
    // Notification emails: NOTIFY_FROM and ses:SendEmail, from CDK context (infra/notifications.ts).
    if (QUEUE_CONSUMER.email === "send") bindNotifications(this.consumer.fn);
    // SES's bounces and complaints of the notifications, recorded on their forms (infra/notifications.ts).
    this.emailEvents = QUEUE_CONSUMER.email === "send" ? addEmailEvents(this, props.table) : undefined;
    // Outbound webhook retries are internal messages the consumer sends to its own queue
    // (lib/outbound/messages.ts, queueAttempt): send rights on this queue and its URL, nothing more.
    bindQueue(this.consumer.fn, this.queue, QUEUE_CONSUMER.queue);
    // The event source grants the function receive, delete and visibility changes on this queue.
    // With ReportBatchItemFailures, Lambda deletes every message of a batch except those the
    // handler returns in batchItemFailures, instead of retrying the whole batch
    // (https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-errorhandling.html).
    this.consumer.fn.addEventSource(
      new SqsEventSource(this.queue, {
        batchSize: QUEUE_CONSUMER.batchSize,
        maxBatchingWindow: Duration.seconds(CONSUMER_MAX_BATCHING_WINDOW_SECONDS),
        reportBatchItemFailures: true,
        maxConcurrency: CONSUMER_MAX_CONCURRENCY,
      }),
    );

    // https://github.com/aws/aws-cdk/issues/31211: a pipe created while its table's new stream is not yet readable fails
    // with "Cannot access stream", intermittently. The pipe therefore waits for the consumer
    // (function, role, event source), which buys the stream time; the stack also orders it after
    // the HTTP API's stage (infra/stack.ts), the last of the slow resources. The retry, if it
    // still happens, is in docs/operations.md ("First deploy").
    this.pipe.node.addDependency(this.consumer);

    this.consumerErrorAlarm = new Alarm(this, "AlarmConsumerErrors", {
      alarmDescription:
        "The intake consumer function threw or timed out in the last 5 minutes, so whole batches return to the queue. Messages it reports as failed do not count here: they end in the DLQ (see its alarm). See docs/operations.md (Alarms).",
      metric: this.consumer.fn.metricErrors({ period: Duration.minutes(5), statistic: "Sum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
