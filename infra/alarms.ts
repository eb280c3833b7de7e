import { ArnFormat, Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, type IMetric, MathExpression, Metric, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import { SnsAction } from "aws-cdk-lib/aws-cloudwatch-actions";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Key } from "aws-cdk-lib/aws-kms";
import { Topic } from "aws-cdk-lib/aws-sns";
import { EmailSubscription } from "aws-cdk-lib/aws-sns-subscriptions";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { DIMENSION, METRIC, METRICS_NAMESPACE, OUTCOMES } from "../lib/metrics/catalog";
import { GSI1 } from "../lib/store/table-definition";
import type { FamilyMetrics } from "./api-metrics";

/** Intake's p99 latency (the gateway's, from request in to response out) above which it alarms. */
export const INTAKE_P99_THRESHOLD_MS = 1000;
/** The age of the intake queue's oldest message above which the consumer is falling behind. */
export const QUEUE_AGE_THRESHOLD_SECONDS = 5 * 60;
/** Outbound attempts that were retried or given up, in percent of all attempts, above which it alarms. */
export const OUTBOUND_FAILURE_THRESHOLD_PERCENT = 20;
/** Attempts in the window below which the failure rate is not judged (one failure of two is no trend). */
export const OUTBOUND_MIN_ATTEMPTS = 10;
/**
 * SES places an account under review at a 5% bounce rate and may pause its sending at 10%; for
 * complaints at 0.1% and 0.5% (https://docs.aws.amazon.com/ses/latest/dg/reputationdashboard-messages.html).
 * Inlet warns at the review levels, half the pause levels: the rates are computed over a
 * representative volume of recent sends, so they move slowly, and there is still time to stop the
 * cause before a pause. The metrics are fractions (0.05 is 5%).
 */
export const SES_BOUNCE_RATE_THRESHOLD = 0.05;
export const SES_COMPLAINT_RATE_THRESHOLD = 0.001;

/** The table's throttle events, the table's and its index's, reads and writes. */
export function tableThrottleMetrics(table: ITable, period: Duration): Record<string, Metric> {
  const metric = (metricName: string, index?: string) =>
    new Metric({
      namespace: "AWS/DynamoDB",
      metricName,
      dimensionsMap: index ? { TableName: table.tableName, GlobalSecondaryIndexName: index } : { TableName: table.tableName },
      statistic: "Sum",
      period,
    });
  return {
    readThrottles: metric("ReadThrottleEvents"),
    writeThrottles: metric("WriteThrottleEvents"),
    indexReadThrottles: metric("ReadThrottleEvents", GSI1),
    indexWriteThrottles: metric("WriteThrottleEvents", GSI1),
  };
}

/** Expression ids must start with a lowercase letter: `gave_up` → `gaveup`. */
const idOf = (outcome: string) => outcome.replace(/_/g, "");

/** The share of outbound attempts retried or given up, in percent; 0 below OUTBOUND_MIN_ATTEMPTS. */
export function outboundFailureRate(period: Duration): MathExpression {
  const outcomes = OUTCOMES[METRIC.outboundDeliveries];
  const usingMetrics = Object.fromEntries(
    outcomes.map((outcome) => [
      idOf(outcome),
      new Metric({
        namespace: METRICS_NAMESPACE,
        metricName: METRIC.outboundDeliveries,
        dimensionsMap: { [DIMENSION.outcome]: outcome },
        statistic: "Sum",
        period,
      }),
    ]),
  );
  const total = outcomes.map((o) => `FILL(${idOf(o)}, 0)`).join(" + ");
  const failed = (["retried", "gave_up"] as const).map((o) => `FILL(${idOf(o)}, 0)`).join(" + ");
  return new MathExpression({
    expression: `IF((${total}) >= ${OUTBOUND_MIN_ATTEMPTS}, 100 * (${failed}) / (${total}), 0)`,
    usingMetrics,
    label: "outbound failure rate (%)",
    period,
  });
}

export const sesReputation = (metricName: "Reputation.BounceRate" | "Reputation.ComplaintRate") =>
  // Account-level: SES publishes these for the account and region, without dimensions.
  new Metric({ namespace: "AWS/SES", metricName, statistic: "Maximum", period: Duration.hours(1) });

/** The topic policy statement that lets this account's CloudWatch alarms, and nothing else, publish. */
export function alarmPublishing(topic: Topic): PolicyStatement {
  const stack = Stack.of(topic);
  return new PolicyStatement({
    sid: "CloudWatchAlarmsPublish",
    principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
    actions: ["sns:Publish"],
    resources: [topic.topicArn],
    conditions: {
      StringEquals: { "aws:SourceAccount": stack.account },
      ArnLike: {
        "aws:SourceArn": stack.formatArn({
          service: "cloudwatch",
          resource: "alarm",
          resourceName: "*",
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      },
    },
  });
}

export interface InletAlarmsProps {
  table: ITable;
  queue: IQueue;
  intakeFamily: FamilyMetrics;
  /** Alarms created elsewhere that must notify the topic too. */
  existing: readonly Alarm[];
  /** Subscribed to the topic by email when given (`-c alarmEmail=...`). */
  email?: string | undefined;
}

/**
 * One SNS topic that every alarm of the stack notifies (when it fires and when it recovers), and
 * the alarms beyond the API's, the DLQ's and the consumer's. Each alarm's meaning, first checks
 * and recovery are in docs/operations.md ("Alarms").
 *
 * The topic is encrypted with a customer managed key (cdk-nag SNS2): CloudWatch can publish to an
 * encrypted topic only if the key lets it, which the AWS managed key `alias/aws/sns` cannot
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/AlarmThatSendsEmail.html).
 * It refuses requests without TLS (cdk-nag SNS3).
 */
export class InletAlarms extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[];

  constructor(scope: Construct, id: string, props: InletAlarmsProps) {
    super(scope, id);

    const key = new Key(this, "KeyTopic", {
      description: "Inlet: encrypts the alarm topic's messages",
      enableKeyRotation: true,
      // Holds no data at rest (messages are delivered at once); deleted with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: Duration.days(7),
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal("cloudwatch.amazonaws.com")],
        actions: ["kms:Decrypt", "kms:GenerateDataKey*"],
        resources: ["*"],
      }),
    );

    this.topic = new Topic(this, "TopicAlarms", {
      displayName: "Inlet alarms",
      masterKey: key,
      enforceSSL: true,
    });
    // enforceSSL gives the topic a policy of its own, which replaces SNS's default one (that let
    // the account's principals publish): without this statement CloudWatch may not publish, and
    // every alarm changes state without telling anyone. Scoped to this account's alarms (the
    // confused-deputy keys CloudWatch sets: https://docs.aws.amazon.com/sns/latest/dg/sns-access-policy-use-cases.html).
    // docs/operations.md, "After a deploy", has the check that an alarm reaches a person.
    this.topic.addToResourcePolicy(alarmPublishing(this.topic));
    if (props.email) this.topic.addSubscription(new EmailSubscription(props.email));

    const five = Duration.minutes(5);
    const alarm = (
      alarmId: string,
      description: string,
      metric: IMetric,
      threshold: number,
      options: { evaluationPeriods?: number; datapointsToAlarm?: number; comparisonOperator?: ComparisonOperator } = {},
    ) =>
      new Alarm(this, alarmId, {
        alarmDescription: `${description} See docs/operations.md (Alarms).`,
        metric,
        threshold,
        comparisonOperator: options.comparisonOperator ?? ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        datapointsToAlarm: options.datapointsToAlarm,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });

    const throttles = tableThrottleMetrics(props.table, five);
    const created = [
      alarm(
        "AlarmIntakeLatency",
        `Intake's p99 latency stayed above ${INTAKE_P99_THRESHOLD_MS} ms for 15 minutes.`,
        props.intakeFamily.latency("p99"),
        INTAKE_P99_THRESHOLD_MS,
        { evaluationPeriods: 3, datapointsToAlarm: 3 },
      ),
      alarm(
        "AlarmTableThrottles",
        "DynamoDB throttled reads or writes of the table or its index in the last 5 minutes.",
        new MathExpression({
          expression: Object.keys(throttles).join(" + "),
          usingMetrics: throttles,
          label: "throttle events",
          period: five,
        }),
        0,
      ),
      alarm(
        "AlarmQueueAge",
        `The intake queue's oldest message stayed older than ${QUEUE_AGE_THRESHOLD_SECONDS / 60} minutes for 15 minutes: the consumer is falling behind or failing.`,
        props.queue.metricApproximateAgeOfOldestMessage({ period: five, statistic: "Maximum" }),
        QUEUE_AGE_THRESHOLD_SECONDS,
        { evaluationPeriods: 3, datapointsToAlarm: 3 },
      ),
      alarm(
        "AlarmOutboundFailures",
        `More than ${OUTBOUND_FAILURE_THRESHOLD_PERCENT}% of outbound webhook attempts were retried or given up over 15 minutes (at least ${OUTBOUND_MIN_ATTEMPTS} attempts).`,
        outboundFailureRate(Duration.minutes(15)),
        OUTBOUND_FAILURE_THRESHOLD_PERCENT,
      ),
      alarm(
        "AlarmSesBounceRate",
        `The account's SES bounce rate passed ${SES_BOUNCE_RATE_THRESHOLD * 100}% (SES reviews the account from 5% and may pause its sending at 10%).`,
        sesReputation("Reputation.BounceRate"),
        SES_BOUNCE_RATE_THRESHOLD,
      ),
      alarm(
        "AlarmSesComplaintRate",
        `The account's SES complaint rate passed ${SES_COMPLAINT_RATE_THRESHOLD * 100}% (SES reviews the account from 0.1% and may pause its sending at 0.5%).`,
        sesReputation("Reputation.ComplaintRate"),
        SES_COMPLAINT_RATE_THRESHOLD,
      ),
    ];

    this.alarms = [...props.existing, ...created];
    const action = new SnsAction(this.topic);
    for (const each of this.alarms) {
      each.addAlarmAction(action);
      each.addOkAction(action);
    }
  }
}
