import { Stack } from "aws-cdk-lib";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { EventBus, Rule } from "aws-cdk-lib/aws-events";
import { LambdaFunction as LambdaTarget } from "aws-cdk-lib/aws-events-targets";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import { ConfigurationSet, EmailSendingEvent, EventDestination, SuppressionReasons } from "aws-cdk-lib/aws-ses";
import type { Construct } from "constructs";
import { EMAIL_EVENTS } from "../functions/routes";
import { checkSetting, settingDefault } from "../lib/config";
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
 * its bounce and complaint events to the default EventBridge bus (addEmailEvents). Created once,
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
  set.addEventDestination("EventBridge", {
    destination: EventDestination.eventBus(EventBus.fromEventBusName(stack, "DefaultEventBus", "default")),
    events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
  });
  return set;
}

/**
 * The function that records SES's bounce and complaint events on their forms (EMAIL_EVENTS in
 * functions/routes.ts), and the rule that sends it the events of this stack's configuration set.
 * EventBridge retries a failed invocation (up to 24 hours, 185 attempts by default).
 */
export function addEmailEvents(scope: Construct, table: ITable): InletFunction {
  const set = emailConfigurationSet(scope);
  const fn = new InletFunction(scope, "FunctionEmailEvents", {
    handler: EMAIL_EVENTS.handler,
    description: "Inlet: SES bounces and complaints recorded on their forms",
    memoryMb: EMAIL_EVENTS.memoryMb,
    timeoutSeconds: EMAIL_EVENTS.timeoutSeconds,
    environment: settingsFromContext(scope),
  });
  bindTable(fn.fn, table, grantOf(EMAIL_EVENTS));
  new Rule(scope, "RuleEmailEvents", {
    description: "SES bounce and complaint events of Inlet's configuration set",
    eventPattern: {
      source: ["aws.ses"],
      detailType: ["Email Bounced", "Email Complaint Received"],
      detail: { mail: { tags: { "ses:configuration-set": [set.configurationSetName] } } },
    },
    targets: [new LambdaTarget(fn.fn)],
  });
  return fn;
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
