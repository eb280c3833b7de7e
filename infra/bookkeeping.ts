import { Duration, NestedStack, RemovalPolicy } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { FilterCriteria, StartingPosition } from "aws-cdk-lib/aws-lambda";
import { DynamoEventSource, SqsDlq } from "aws-cdk-lib/aws-lambda-event-sources";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { BOOKKEEPER } from "../functions/routes";
import { BOOKKEEPER_FILTER_PATTERNS } from "./bookkeeper-filter";
import { bindTable, settingsFromContext } from "./environment";
import { InletFunction } from "./inlet-function";
import { grantOf } from "./table-grants";

/**
 * How long Lambda may gather records into one batch (MaximumBatchingWindowInSeconds). Under load
 * a batch fills first (100 records), so counters are written once per item per batch; a lone
 * submission is counted about a second after it is stored. A longer window makes bigger batches
 * at low traffic (a batch's 8 write units shared by more submissions, docs/performance.md) and
 * later counts. https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-params.html
 */
export const BOOKKEEPER_MAX_BATCHING_WINDOW_SECONDS = 1;

/**
 * A failed batch is retried whole, immediately, up to this many times before it goes to the
 * dead-letter queue (the shard waits meanwhile). Retries are harmless (each job's checkpoint
 * skips what was applied) and transient causes (throttling, a conflict storm on one counter)
 * pass within seconds, so the bound is high; a batch still failing after it is a bug an
 * operator must look at.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html
 */
export const BOOKKEEPER_MAX_RETRY_ATTEMPTS = 50;

/**
 * Records older than this are given up (to the dead-letter queue) instead of retried: a shard
 * blocked for hours shows every count of its items stale, so an operator should replay the
 * batch by hand rather than let the shard wait out the stream's 24 hours.
 */
export const BOOKKEEPER_MAX_RECORD_AGE_SECONDS = 6 * 60 * 60;

/**
 * The bookkeeper's iterator age (how old the last record it read was when it read it) above which
 * the counts are falling behind: a shard is blocked by a failing batch, or the function throttled.
 */
export const BOOKKEEPER_LAG_THRESHOLD_SECONDS = 5 * 60;

export interface BookkeepingProps {
  /** The table whose stream (NEW_AND_OLD_IMAGES) the bookkeeper follows. */
  table: ITable;
}

/**
 * The bookkeeper (BOOKKEEPER in functions/routes.ts): a function on the table stream that keeps
 * the counters (lib/bookkeeping/), with an event source mapping set so that a batch is never
 * split differently on a retry, which exactly-once counting relies on (lib/store/bookkeeping.ts):
 *
 * - BisectBatchOnFunctionError off: with it, Lambda splits a failed batch in two and retries the
 *   halves, and a half that starts at another record would not find the batch's checkpoint.
 * - No ReportBatchItemFailures: with it, Lambda retries from the reported record, again a batch
 *   starting elsewhere. Without it, a function error retries the batch whole.
 *   https://docs.aws.amazon.com/lambda/latest/dg/services-ddb-batchfailurereporting.html
 * - ParallelizationFactor 1 (the default): one batch per shard at a time, so each counter sees a
 *   shard's batches one after the other (concurrent shards still meet on hot counters, which
 *   TransactionConflict retries absorb).
 * - MaximumRetryAttempts and MaximumRecordAgeInSeconds bound a poison batch; then Lambda sends a
 *   description of the discarded batch (shard, first and last sequence numbers) to the on-failure
 *   destination, this dead-letter queue, whose alarm (infra/alarms.ts) calls for an operator
 *   (docs/operations.md says how to replay it). "If the error handling measures fail, Lambda
 *   discards the records and continues processing batches from the stream."
 *   https://docs.aws.amazon.com/lambda/latest/dg/services-dynamodb-errors.html
 * - Delivery is at least once ("Lambda event source mappings process each event at least once,
 *   and duplicate processing of records can occur",
 *   https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventsourcemapping.html): the
 *   checkpoints make a repeat harmless.
 * - TRIM_HORIZON: records written before the mapping existed (the first deploy) are counted too.
 */
export class Bookkeeping extends Construct {
  readonly fn: InletFunction;
  readonly deadLetterQueue: Queue;
  /** A batch given up (in the dead-letter queue), and the stream lag; the stack's topic is their action (infra/alarms.ts). */
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, props: BookkeepingProps) {
    super(scope, id);
    // A nested stack of its own, as the route families have (infra/http-api.ts), so the parent
    // template stays small (docs/deployment.md, "Headroom").
    const stack = new NestedStack(this, "Stack", { description: "Inlet: the bookkeeper" });
    this.fn = new InletFunction(stack, "FunctionBookkeeper", {
      handler: BOOKKEEPER.handler,
      description: "Inlet bookkeeper: counts from the table stream",
      memoryMb: BOOKKEEPER.memoryMb,
      timeoutSeconds: BOOKKEEPER.timeoutSeconds,
      environment: settingsFromContext(stack),
    });
    bindTable(this.fn.fn, props.table, grantOf(BOOKKEEPER));

    // Descriptions of batches given up: kept (they say which records were never counted).
    this.deadLetterQueue = new Queue(stack, "QueueBookkeeperDeadLetter", {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
    });
    NagSuppressions.addResourceSuppressions(this.deadLetterQueue, [
      {
        id: "AwsSolutions-SQS3",
        reason:
          "This queue is the bookkeeper's on-failure destination (a dead-letter queue itself); a DLQ of a DLQ would only move the problem. Its ApproximateNumberOfMessagesVisible alarm is the escalation path.",
      },
    ]);

    // The event source grants the function's role stream reads (and dynamodb:ListStreams, which
    // takes no resource) and sending to the dead-letter queue.
    this.fn.fn.addEventSource(
      new DynamoEventSource(props.table, {
        startingPosition: StartingPosition.TRIM_HORIZON,
        batchSize: BOOKKEEPER.batchSize,
        maxBatchingWindow: Duration.seconds(BOOKKEEPER_MAX_BATCHING_WINDOW_SECONDS),
        bisectBatchOnError: false,
        reportBatchItemFailures: false,
        parallelizationFactor: 1,
        retryAttempts: BOOKKEEPER_MAX_RETRY_ATTEMPTS,
        maxRecordAge: Duration.seconds(BOOKKEEPER_MAX_RECORD_AGE_SECONDS),
        onFailure: new SqsDlq(this.deadLetterQueue),
        filters: BOOKKEEPER_FILTER_PATTERNS.map((pattern) => FilterCriteria.filter(pattern as Record<string, unknown>)),
      }),
    );
    NagSuppressions.addResourceSuppressions(
      this.fn.role,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "The DynamoDB event source adds dynamodb:ListStreams, which Lambda requires to read a table stream (https://docs.aws.amazon.com/lambda/latest/dg/with-ddb.html#events-dynamodb-permissions) and which supports no resource-level permission, so its resource must be '*'. The stream reads are scoped to this table's stream ARN.",
          appliesTo: ["Resource::*"],
        },
      ],
      true,
    );

    const five = Duration.minutes(5);
    this.alarms = [
      new Alarm(stack, "AlarmBookkeeperDeadLetter", {
        alarmDescription:
          "The bookkeeper gave up a batch of table stream records (its dead-letter queue holds its description): the counts of their forms, webhooks and days miss them until it is replayed. See docs/operations.md (Alarms).",
        metric: this.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: five, statistic: "Maximum" }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
      new Alarm(stack, "AlarmBookkeeperLag", {
        alarmDescription: `The bookkeeper read records older than ${BOOKKEEPER_LAG_THRESHOLD_SECONDS / 60} minutes for 15 minutes: a batch keeps failing (its shard waits) or the function is throttled, and counts are stale. See docs/operations.md (Alarms).`,
        metric: this.fn.fn.metric("IteratorAge", { period: five, statistic: "Maximum" }),
        threshold: BOOKKEEPER_LAG_THRESHOLD_SECONDS * 1000,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 3,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    ];
  }
}
