import { Duration, NestedStack, TimeZone } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { ContextAttribute, Schedule, ScheduleExpression, ScheduleTargetInput } from "aws-cdk-lib/aws-scheduler";
import { LambdaInvoke } from "aws-cdk-lib/aws-scheduler-targets";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { DIGESTS } from "../functions/routes";
import { bindTable, settingsFromContext } from "./environment";
import { InletFunction } from "./inlet-function";
import { bindNotifications } from "./notifications";
import { grantOf } from "./table-grants";

/**
 * How long EventBridge Scheduler keeps trying to invoke a run (throttled, the service busy), and
 * how often: a run an hour late is the next run's to do, since every member it would have served
 * stays due until a run sends their digest.
 */
export const DIGEST_SCHEDULE_DELIVERY = { maxEventAge: Duration.hours(1), retryAttempts: 10 } as const;

/**
 * Lambda's own retries of a failed run (Scheduler invokes it asynchronously): once, a few minutes
 * later, for a passing SES or DynamoDB hiccup. The run sends only what is still due, so a retry
 * sends nothing twice.
 */
export const DIGEST_FUNCTION_RETRIES = 1;

/**
 * The digest schedule (docs/notifications.md, "Digests"): EventBridge Scheduler invokes the
 * DIGESTS function at the top of every hour, with the scheduled time as its clock; the function
 * sends every digest due by then (lib/digests/run.ts). No dead-letter queue: what a lost or failed
 * run would have sent stays due in the table and the next run sends it. An alarm says when a run
 * failed (a digest SES refused, a read that failed); docs/operations.md, "Digests", says what to do.
 */
export class DigestSchedule extends Construct {
  readonly fn: InletFunction;
  readonly schedule: Schedule;
  readonly alarm: Alarm;

  constructor(scope: Construct, id: string, props: { table: ITable }) {
    super(scope, id);
    // A nested stack of its own, as each route family has: the root template stays far below
    // CloudFormation's resource quota (test/standalone/infra/quotas.test.ts).
    const stack = new NestedStack(this, "Stack", { description: "Inlet: the hourly digest run" });
    this.fn = new InletFunction(stack, "FunctionDigests", {
      handler: DIGESTS.handler,
      description: "Inlet: members' daily and weekly digests, every hour",
      memoryMb: DIGESTS.memoryMb,
      timeoutSeconds: DIGESTS.timeoutSeconds,
      environment: settingsFromContext(stack),
    });
    bindTable(this.fn.fn, props.table, grantOf(DIGESTS));
    if (DIGESTS.email === "send") bindNotifications(this.fn.fn);
    this.fn.fn.configureAsyncInvoke({ retryAttempts: DIGEST_FUNCTION_RETRIES });

    // The scheduler's own role: it may invoke this function, nothing else.
    const role = new Role(stack, "RoleScheduler", {
      assumedBy: new ServicePrincipal("scheduler.amazonaws.com"),
      description: "EventBridge Scheduler: invokes the digest function",
    });
    this.schedule = new Schedule(stack, "ScheduleHourly", {
      description: "Inlet: sends the digests due each hour (docs/notifications.md, Digests)",
      schedule: ScheduleExpression.cron({ minute: "0", timeZone: TimeZone.ETC_UTC }),
      target: new LambdaInvoke(this.fn.fn, {
        role,
        input: ScheduleTargetInput.fromObject({ time: ContextAttribute.scheduledTime }),
        ...DIGEST_SCHEDULE_DELIVERY,
      }),
    });

    NagSuppressions.addResourceSuppressions(
      role,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "lambda:InvokeFunction on the digest function and its versions (`<arn>:*`), as CDK's grantInvoke writes it; the function is only ever invoked unqualified ($LATEST) and has no alias.",
          appliesTo: [{ regex: "/^Resource::<[A-Za-z0-9]+\\.Arn>:\\*$/" }],
        },
      ],
      true,
    );

    this.alarm = new Alarm(stack, "AlarmDigestErrors", {
      alarmDescription:
        "A digest run failed in the last hour: some members' digests were not sent (they stay due and the next run tries again). See docs/operations.md (Alarms).",
      metric: this.fn.fn.metricErrors({ period: Duration.hours(1), statistic: "Sum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
