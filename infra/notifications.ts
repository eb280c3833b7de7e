import { Duration, RemovalPolicy, Stack } from "aws-cdk-lib";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { EventBus, Rule } from "aws-cdk-lib/aws-events";
import { LambdaFunction as LambdaTarget } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import { SqsDestination } from "aws-cdk-lib/aws-lambda-destinations";
import { ConfigurationSet, EmailSendingEvent, EventDestination, SuppressionReasons } from "aws-cdk-lib/aws-ses";
import { Queue, QueueEncryption } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { EMAIL_EVENTS } from "../functions/routes";
import { checkSetting, settingDefault } from "../lib/config";
import { EMAIL_EVENTS_FUNCTION_RETRIES, emailEventsPattern } from "./email-events-rule";
import { bindTable, setEnvironment, settingsFromContext } from "./environment";
import { InletFunction } from "./inlet-function";
import { grantOf } from "./table-grants";

/**
 * Notification emails (lib/notifications/): the function that sends them (the intake consumer)
 * gets NOTIFY_FROM and `ses:SendEmail`, from two CDK context values:
 * - `notifyFrom`: the sender, `Name <addr@domain>` or `addr@domain` (validated by the rules of
 *   lib/config.ts at synth); unset, its default applies, which no real SES identity verifies.
 * - `sesIdentity`: the verified SES identity the sender belongs to (its domain, a parent domain,
 *   or the address itself). Set, the grant is scoped to that identity's ARN; unset, SendEmail is
 *   allowed on any identity of the account and region (docs/deployment.md, "Email").
 */
export const NOTIFY_CONTEXT = { from: "notifyFrom", identity: "sesIdentity" } as const;

const addressOf = (sender: string) => (/<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender).trim().toLowerCase();

/** Whether a verified identity (a domain or an address) lets `sender` send. */
export function identityCovers(identity: string, sender: string): boolean {
  const address = addressOf(sender);
  const id = identity.trim().toLowerCase();
  if (id.includes("@")) return address === id;
  const domain = address.slice(address.lastIndexOf("@") + 1);
  // A verified domain also covers its subdomains, unless a subdomain is verified on its own.
  return domain === id || domain.endsWith(`.${id}`);
}

/**
 * The stack's one SES configuration set (email reputation, lib/notifications/suppression.ts):
 * SES puts an address that bounces hard or complains on the account's suppression list
 * (`suppressionReasons`), publishes the set's bounce rate and complaint rate as CloudWatch
 * metrics (`reputationMetrics`: the alarms near SES's enforcement levels read them), and sends
 * the events of every email's fate (sent, delivered, bounced, complained, rejected, delayed) to
 * the default EventBridge bus (addEmailEvents). Created once,
 * in the root stack, by the first function that sends email.
 */
export function emailConfigurationSet(scope: Construct): ConfigurationSet {
  // In the root stack: functions that send email are in several nested stacks, which reference it.
  let stack = Stack.of(scope);
  while (stack.nestedStackParent) stack = stack.nestedStackParent;
  const existing = stack.node.tryFindChild("EmailConfigurationSet");
  if (existing) return existing as ConfigurationSet;
  const set = new ConfigurationSet(stack, "EmailConfigurationSet", {
    suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    reputationMetrics: true,
  });
  // Every event of an email's fate (docs/email.md), SES's only bus being the default one.
  set.addEventDestination("EventBridge", {
    destination: EventDestination.eventBus(EventBus.fromEventBusName(stack, "DefaultEventBus", "default")),
    events: [
      EmailSendingEvent.SEND,
      EmailSendingEvent.DELIVERY,
      EmailSendingEvent.BOUNCE,
      EmailSendingEvent.COMPLAINT,
      EmailSendingEvent.REJECT,
      EmailSendingEvent.DELIVERY_DELAY,
    ],
  });
  return set;
}

/** How long EventBridge keeps trying to hand an event to the function, and how often (its defaults, stated). */
export const EMAIL_EVENTS_DELIVERY = { maxEventAge: Duration.hours(24), retryAttempts: 185 } as const;

export { EMAIL_EVENTS_FUNCTION_RETRIES } from "./email-events-rule";

/** The SES event handling: the function, its dead-letter queue, and the two alarms that surface a lost event. */
export interface EmailEvents {
  fn: InletFunction;
  deadLetterQueue: Queue;
  alarms: Alarm[];
}

/**
 * The function that records SES's events (EMAIL_EVENTS in functions/routes.ts): each email's fate,
 * and a hard bounce's or a complaint's address on its form; and the rule that sends it the events
 * of this stack's configuration set (infra/email-events-rule.ts).
 * EventBridge invokes the function asynchronously, so an event can be lost two ways, and both end
 * in one dead-letter queue: EventBridge cannot invoke it (throttled, no permission) within
 * EMAIL_EVENTS_DELIVERY (the rule target's dead-letter queue), or the function fails it
 * (Lambda retries twice, then its on-failure destination). An alarm on the function's errors and
 * one on the queue say so; docs/operations.md, "SES events", says how to replay them.
 */
export function addEmailEvents(scope: Construct, table: ITable): EmailEvents {
  const set = emailConfigurationSet(scope);
  const fn = new InletFunction(scope, "FunctionEmailEvents", {
    handler: EMAIL_EVENTS.handler,
    description: "Inlet: SES events recorded (each email's fate, suppressed addresses on their forms)",
    memoryMb: EMAIL_EVENTS.memoryMb,
    timeoutSeconds: EMAIL_EVENTS.timeoutSeconds,
    environment: settingsFromContext(scope),
  });
  bindTable(fn.fn, table, grantOf(EMAIL_EVENTS));
  // Holds the events not recorded yet: retained like the intake queues (infra/intake-pipeline.ts).
  const deadLetterQueue = new Queue(scope, "QueueEmailEventsDeadLetter", {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
    removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
  });
  NagSuppressions.addResourceSuppressions(deadLetterQueue, [
    {
      id: "AwsSolutions-SQS3",
      reason:
        "This queue is the dead-letter queue of the SES events rule and of the function's failed invocations; a DLQ of a DLQ would only move the problem. Its ApproximateNumberOfMessagesVisible alarm is the escalation path.",
    },
  ]);
  fn.fn.configureAsyncInvoke({
    retryAttempts: EMAIL_EVENTS_FUNCTION_RETRIES,
    onFailure: new SqsDestination(deadLetterQueue),
  });
  const pattern = emailEventsPattern(set.configurationSetName);
  new Rule(scope, "RuleEmailEvents", {
    description: "SES events of Inlet's configuration set: each email's fate",
    eventPattern: { source: pattern.source, detailType: pattern["detail-type"], detail: pattern.detail },
    targets: [new LambdaTarget(fn.fn, { deadLetterQueue, ...EMAIL_EVENTS_DELIVERY })],
  });
  const period = Duration.minutes(5);
  const alarms = [
    new Alarm(scope, "AlarmEmailEventsErrors", {
      alarmDescription:
        "The function recording SES events failed in the last 5 minutes; after Lambda's retries the event is in its dead-letter queue. See docs/operations.md (Alarms).",
      metric: fn.fn.metricErrors({ period, statistic: "Sum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }),
    new Alarm(scope, "AlarmEmailEventsDeadLetter", {
      alarmDescription:
        "SES events were not recorded: they are in the SES events dead-letter queue. See docs/operations.md (Alarms).",
      metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period, statistic: "Maximum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }),
  ];
  return { fn, deadLetterQueue, alarms };
}

export function bindNotifications(fn: LambdaFunction): void {
  // Every email goes through the configuration set (lib/aws/ses.ts reads SES_CONFIGURATION_SET).
  const set = emailConfigurationSet(fn);
  setEnvironment(fn, { SES_CONFIGURATION_SET: set.configurationSetName });
  const setArn = Stack.of(fn).formatArn({
    service: "ses",
    resource: "configuration-set",
    resourceName: set.configurationSetName,
  });
  const rawFrom: unknown = fn.node.tryGetContext(NOTIFY_CONTEXT.from);
  const rawIdentity: unknown = fn.node.tryGetContext(NOTIFY_CONTEXT.identity);
  const from = rawFrom === undefined || rawFrom === null || rawFrom === "" ? undefined : String(rawFrom);
  const identity = rawIdentity === undefined || rawIdentity === null || rawIdentity === "" ? undefined : String(rawIdentity);

  if (from !== undefined) {
    const reason = checkSetting("NOTIFY_FROM", from);
    if (reason !== undefined) {
      throw new Error(`Context value ${NOTIFY_CONTEXT.from}=${JSON.stringify(from)} is not a valid NOTIFY_FROM: ${reason}`);
    }
    setEnvironment(fn, { NOTIFY_FROM: from });
  }

  // Required context (infra/operator-context.ts stops synth without it): no '*' grant is ever made.
  if (identity === undefined) throw new Error(`Context value ${NOTIFY_CONTEXT.identity} is required`);
  const sender = from ?? settingDefault("NOTIFY_FROM");
  if (!identityCovers(identity, sender)) {
    throw new Error(
      `Context value ${NOTIFY_CONTEXT.identity}=${JSON.stringify(identity)} does not cover the sender ${JSON.stringify(sender)} (set ${NOTIFY_CONTEXT.from})`,
    );
  }
  fn.addToRolePolicy(
    new PolicyStatement({
      actions: ["ses:SendEmail"],
      // SendEmail through a configuration set is authorized on the set too.
      resources: [Stack.of(fn).formatArn({ service: "ses", resource: "identity", resourceName: identity.trim() }), setArn],
    }),
  );
}

/**
 * A function that lifts a form's suppressed address (functions/emails/lift-suppression.ts): it may
 * take addresses off SES's account-level suppression list, nothing else of SES. The action has no
 * resource type (the list is the account's), so it is granted on `*`.
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsesv2.html
 */
export function bindSuppressionRemoval(fn: LambdaFunction): void {
  fn.addToRolePolicy(new PolicyStatement({ actions: ["ses:DeleteSuppressedDestination"], resources: ["*"] }));
  if (fn.role) {
    NagSuppressions.addResourceSuppressions(
      fn.role,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "ses:DeleteSuppressedDestination acts on the account-level suppression list, which has no resource ARN: IAM authorizes it on * only. It is this function's only SES action.",
          appliesTo: ["Resource::*"],
        },
      ],
      true,
    );
  }
}
