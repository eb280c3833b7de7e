import type { Construct } from "constructs";
import { checkSetting } from "../lib/config";

/**
 * Deployment choices an operator makes with CDK context (`-c key=value` or cdk.json's context)
 * that are not function settings: who sends the notification email, who hears the alarms,
 * whether X-Ray traces requests and whether Lambda's own log lines are kept. docs/deployment.md
 * lists them; docs/operations.md says what each costs.
 */
export const OPERATOR_CONTEXT = {
  notifyFrom: "notifyFrom",
  sesIdentity: "sesIdentity",
  alarmEmail: "alarmEmail",
  tracing: "tracing",
  platformLogs: "platformLogs",
} as const;

const read = (scope: Construct, key: string): string | undefined => {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === null) return undefined;
  const value = String(raw).trim();
  return value === "" ? undefined : value;
};

/**
 * The notification sender and its SES identity are required: the default sender
 * (`notifications@inlet.localhost`) is one no SES identity can verify, and a deployment without
 * a real one fails every notification five times into the dead-letter queue. The values
 * themselves (format, and that the identity covers the sender) are checked where they are bound
 * to the functions (infra/notifications.ts).
 */
export function requireSender(scope: Construct): { from: string; identity: string } {
  const from = read(scope, OPERATOR_CONTEXT.notifyFrom);
  const identity = read(scope, OPERATOR_CONTEXT.sesIdentity);
  if (from !== undefined && identity !== undefined) return { from, identity };
  const missing = [from === undefined ? "notifyFrom" : undefined, identity === undefined ? "sesIdentity" : undefined]
    .filter(Boolean)
    .join(" and ");
  throw new Error(
    `The context value${missing.includes(" and ") ? "s" : ""} ${missing} ${missing.includes(" and ") ? "are" : "is"} required: ` +
      "the sender of notification emails and the verified SES identity it belongs to (its domain, or the address itself). " +
      'For example: npx cdk deploy -c "notifyFrom=Acme Forms <forms@example.com>" -c sesIdentity=example.com ' +
      "(or set both in cdk.json's context). Verify the identity in SES first (docs/deployment.md, Email).",
  );
}

/** The address subscribed to the alarm topic, if any (`-c alarmEmail=ops@example.com`). */
export function alarmEmailFromContext(scope: Construct): string | undefined {
  const email = read(scope, OPERATOR_CONTEXT.alarmEmail);
  if (email === undefined) return undefined;
  // The same address rule the functions use for their admin list (lib/config.ts).
  const reason = checkSetting("PLATFORM_ADMIN_EMAILS", email);
  if (reason !== undefined || email.includes(",")) {
    throw new Error(`Context value alarmEmail=${JSON.stringify(email)} is not one email address`);
  }
  return email;
}

/**
 * `-c tracing=on` turns on X-Ray active tracing for every function and sets TRACING=on, which
 * the code reads to capture its SDK clients. Off by default: tracing adds cold-start time and a
 * per-trace cost (docs/operations.md, "Tracing").
 */
export function tracingFromContext(scope: Construct): boolean {
  const value = read(scope, OPERATOR_CONTEXT.tracing);
  if (value === undefined || value === "off" || value === "false") return false;
  if (value === "on" || value === "true") return true;
  throw new Error(`Context value tracing=${JSON.stringify(value)} is not "on" or "off"`);
}

/**
 * `-c platformLogs=on` keeps Lambda's START, END and REPORT lines (system log level INFO) on every
 * function, for a look at memory used and init durations; off by default, they are dropped (system
 * log level WARN: infra/inlet-function.ts), about 300 bytes of log ingestion per invocation.
 */
export function platformLogsFromContext(scope: Construct): boolean {
  const value = read(scope, OPERATOR_CONTEXT.platformLogs);
  if (value === undefined || value === "off" || value === "false") return false;
  if (value === "on" || value === "true") return true;
  throw new Error(`Context value platformLogs=${JSON.stringify(value)} is not "on" or "off"`);
}
