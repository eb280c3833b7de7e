import { Aws, Duration, Stack } from "aws-cdk-lib";
import { Dashboard, GraphWidget, type IMetric, MathExpression, Metric, TextWidget } from "aws-cdk-lib/aws-cloudwatch";
import type { Table } from "aws-cdk-lib/aws-dynamodb";
import type { Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import type { CfnPipe } from "aws-cdk-lib/aws-pipes";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { Construct } from "constructs";
import { DIMENSION, METRIC, METRICS_NAMESPACE, type MetricName } from "../lib/metrics/catalog";
import { outboundFailureRate, sesReputation, tableThrottleMetrics } from "./alarms";
import { type FamilyMetrics, ROUTE_FAMILIES } from "./api-metrics";
import type { RouteFamily } from "./http-api";

/**
 * The dimension set each business metric is emitted with (lib/metrics/catalog.ts): SEARCH
 * matches a metric only under its exact set, so one line is graphed per value actually emitted
 * (every source, reason and outcome), never a value retyped here. `satisfies` makes a new
 * catalog metric a `tsc` error until it is placed on the dashboard.
 */
export const BUSINESS_METRIC_DIMENSIONS = {
  [METRIC.submissionsReceived]: [DIMENSION.source],
  [METRIC.submissionsStored]: [DIMENSION.source],
  [METRIC.submissionsRejected]: [DIMENSION.reason, DIMENSION.source],
  [METRIC.spamFlagged]: [DIMENSION.by],
  [METRIC.captchaVerifications]: [DIMENSION.outcome],
  [METRIC.captchaLatency]: [DIMENSION.outcome],
  [METRIC.duplicateAdsLeads]: [],
  [METRIC.idempotentRepeats]: [],
  [METRIC.notifications]: [DIMENSION.outcome],
  [METRIC.outboundDeliveries]: [DIMENSION.outcome],
  [METRIC.apiKeyRateLimited]: [],
  [METRIC.loginRefusals]: [DIMENSION.outcome],
  [METRIC.confirmations]: [DIMENSION.outcome],
} as const satisfies Record<MetricName, readonly string[]>;

/** The business-metric widgets, each listing the catalog metrics it graphs, and at which statistic. */
const BUSINESS_WIDGETS: readonly { title: string; metrics: readonly MetricName[]; statistic?: string }[] = [
  { title: "Submissions received and stored, by source", metrics: [METRIC.submissionsReceived, METRIC.submissionsStored] },
  { title: "Submissions rejected, by status and source", metrics: [METRIC.submissionsRejected] },
  { title: "Spam flagged, by signal", metrics: [METRIC.spamFlagged] },
  {
    title: "Duplicate ads leads, idempotent repeats, API-key 429s",
    metrics: [METRIC.duplicateAdsLeads, METRIC.idempotentRepeats, METRIC.apiKeyRateLimited],
  },
  { title: "Captcha verifications, by outcome", metrics: [METRIC.captchaVerifications] },
  { title: "Captcha provider latency p99 (ms), by outcome", metrics: [METRIC.captchaLatency], statistic: "p99" },
  { title: "Notification emails, by outcome", metrics: [METRIC.notifications] },
  { title: "Confirmation emails, by outcome", metrics: [METRIC.confirmations] },
  { title: "Outbound webhook attempts, by outcome", metrics: [METRIC.outboundDeliveries] },
  { title: "Log-in refusals, by outcome", metrics: [METRIC.loginRefusals] },
];

/**
 * The routes whose functions the Lambda row graphs, beside the consumer: intake's post, and the
 * heaviest of the others (log-in's scrypt, the inbox's list, the export and the erasure, which
 * have their own memory or timeout in functions/routes.ts). Checked against the route table at
 * synth.
 */
export const GRAPHED_ROUTES = [
  "POST /api/v1/incoming/{webhookId}",
  "POST /api/v1/auth/login",
  "GET /api/v1/forms/{formId}/submissions",
  "GET /api/v1/forms/{formId}/submissions/export",
  "POST /api/v1/sites/{id}/submissions/erase",
] as const;

const FAMILY_TITLE: Record<RouteFamily, string> = { intake: "Intake", auth: "Authentication", management: "Management" };

export interface OpsDashboardProps {
  families: Record<RouteFamily, FamilyMetrics>;
  /** Functions graphed in the Lambda row, by label: intake, the consumer, the heaviest routes. */
  functions: ReadonlyMap<string, LambdaFunction>;
  table: Table;
  queue: IQueue;
  deadLetterQueue: IQueue;
  pipe: CfnPipe;
}

const PERIOD = Duration.minutes(5);

/** A SEARCH over one catalog metric under its dimension set, one line per dimension value. */
export function businessSearch(metric: MetricName, statistic: string): string {
  const schema = [METRICS_NAMESPACE, ...BUSINESS_METRIC_DIMENSIONS[metric]].join(",");
  return `SEARCH('{${schema}} MetricName="${metric}"', '${statistic}', ${PERIOD.toSeconds()})`;
}

/**
 * One CloudWatch dashboard for the deployment, named after the stack and its region (dashboard
 * names are per account, across regions): the API by route family, the busiest functions, the
 * table, the pipeline and what Inlet does. docs/operations.md ("Dashboard") reads it.
 */
export class OpsDashboard extends Construct {
  readonly dashboard: Dashboard;
  readonly url: string;

  constructor(scope: Construct, id: string, props: OpsDashboardProps) {
    super(scope, id);
    const name = `${Stack.of(this).stackName}-${Aws.REGION}`;
    this.dashboard = new Dashboard(this, "Dashboard", { dashboardName: name, defaultInterval: Duration.hours(3) });
    this.url = `https://console.aws.amazon.com/cloudwatch/home?region=${Aws.REGION}#dashboards/dashboard/${name}`;

    const graph = (title: string, left: IMetric[], width = 8, right?: IMetric[]) =>
      new GraphWidget({ title, left, right, width, height: 6, period: PERIOD });

    const heading = (markdown: string) => new TextWidget({ markdown, width: 24, height: 1 });

    // API, by route family (from the access log: infra/api-metrics.ts).
    this.dashboard.addWidgets(heading("## API by route family (API Gateway access log)"));
    this.dashboard.addWidgets(
      ...ROUTE_FAMILIES.map((family) => {
        const m = props.families[family];
        return graph(`${FAMILY_TITLE[family]}: requests, 4xx, 5xx`, [m.requests, m.clientErrors, m.serverErrors]);
      }),
    );
    this.dashboard.addWidgets(
      ...ROUTE_FAMILIES.map((family) =>
        graph(`${FAMILY_TITLE[family]}: latency p50, p99 (ms)`, [
          props.families[family].latency("p50").with({ label: "p50" }),
          props.families[family].latency("p99").with({ label: "p99" }),
        ]),
      ),
    );

    // Lambda: the functions that carry the load.
    const fns = [...props.functions.entries()];
    const perFunction = (metricName: string, statistic: string) =>
      fns.map(
        ([label, fn]) =>
          new Metric({
            namespace: "AWS/Lambda",
            metricName,
            dimensionsMap: { FunctionName: fn.functionName },
            statistic,
            period: PERIOD,
            label,
          }),
      );
    this.dashboard.addWidgets(heading("## Functions: intake, the consumer, the heaviest routes"));
    this.dashboard.addWidgets(
      graph("Errors", perFunction("Errors", "Sum"), 6),
      graph("Throttles", perFunction("Throttles", "Sum"), 6),
      graph("Duration p99 (ms)", perFunction("Duration", "p99"), 6),
      graph(
        "Concurrent executions (max)",
        [
          ...perFunction("ConcurrentExecutions", "Maximum"),
          // The account's total against its regional quota (docs/operations.md, "Concurrency").
          new Metric({
            namespace: "AWS/Lambda",
            metricName: "ConcurrentExecutions",
            statistic: "Maximum",
            period: PERIOD,
            label: "whole account",
          }),
        ],
        6,
      ),
    );

    // DynamoDB.
    const throttles = tableThrottleMetrics(props.table, PERIOD);
    this.dashboard.addWidgets(heading("## Table"));
    this.dashboard.addWidgets(
      graph(
        "Throttle events (table and index)",
        Object.entries(throttles).map(([label, m]) => m.with({ label })),
      ),
      graph("Consumed capacity units", [
        props.table.metricConsumedReadCapacityUnits({ period: PERIOD, statistic: "Sum", label: "read" }),
        props.table.metricConsumedWriteCapacityUnits({ period: PERIOD, statistic: "Sum", label: "write" }),
      ]),
      graph("System errors (all operations)", [
        props.table.metricSystemErrorsForOperations({ period: PERIOD, label: "system errors" }),
      ]),
    );

    // The pipeline: stream → pipe → queue → consumer, and the DLQ.
    const pipeMetric = (metricName: string) =>
      new Metric({
        namespace: "AWS/EventBridge/Pipes",
        metricName,
        dimensionsMap: { PipeName: props.pipe.ref },
        statistic: "Sum",
        period: PERIOD,
        label: metricName,
      });
    this.dashboard.addWidgets(heading("## Intake pipeline"));
    this.dashboard.addWidgets(
      graph(
        "Intake queue: messages",
        [
          props.queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: "Maximum", label: "waiting" }),
          props.queue.metricApproximateNumberOfMessagesNotVisible({ period: PERIOD, statistic: "Maximum", label: "in flight" }),
        ],
        6,
      ),
      graph(
        "Intake queue: age of oldest message (s)",
        [props.queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: "Maximum", label: "oldest" })],
        6,
      ),
      graph(
        "Dead-letter queue: messages",
        [
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period: PERIOD,
            statistic: "Maximum",
            label: "dead letters",
          }),
        ],
        6,
      ),
      graph("Pipe failures", ["ExecutionFailed", "TargetStageFailed", "ExecutionThrottled"].map(pipeMetric), 6),
    );

    // What Inlet does: the business metrics (lib/metrics/catalog.ts), and the email reputation.
    this.dashboard.addWidgets(heading("## What Inlet does (business metrics, namespace Inlet)"));
    const business: GraphWidget[] = BUSINESS_WIDGETS.map(({ title, metrics, statistic }) =>
      graph(
        title,
        metrics.map(
          (metric) => new MathExpression({ expression: businessSearch(metric, statistic ?? "Sum"), label: "", period: PERIOD }),
        ),
      ),
    );
    business.push(
      graph("Outbound failure rate (%)", [outboundFailureRate(Duration.minutes(15))]),
      graph("SES reputation (account): bounce and complaint rate", [
        sesReputation("Reputation.BounceRate").with({ label: "bounce rate" }),
        sesReputation("Reputation.ComplaintRate").with({ label: "complaint rate" }),
      ]),
    );
    this.dashboard.addWidgets(...business);
  }
}
