import { Stack } from "aws-cdk-lib";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import { NagSuppressions } from "cdk-nag";
import { checkSetting, settingDefault } from "../lib/config";
import { setEnvironment } from "./environment";

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

export function bindNotifications(fn: LambdaFunction): void {
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

  if (identity !== undefined) {
    const sender = from ?? settingDefault("NOTIFY_FROM");
    if (!identityCovers(identity, sender)) {
      throw new Error(
        `Context value ${NOTIFY_CONTEXT.identity}=${JSON.stringify(identity)} does not cover the sender ${JSON.stringify(sender)} (set ${NOTIFY_CONTEXT.from})`,
      );
    }
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ["ses:SendEmail"],
        resources: [Stack.of(fn).formatArn({ service: "ses", resource: "identity", resourceName: identity.trim() })],
      }),
    );
    return;
  }

  fn.addToRolePolicy(new PolicyStatement({ actions: ["ses:SendEmail"], resources: ["*"] }));
  if (fn.role) {
    NagSuppressions.addResourceSuppressions(
      fn.role,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "ses:SendEmail is authorized against the sending identity's ARN, and this deployment names none (CDK context `sesIdentity` unset), so the resource is '*': the function may send through any SES identity verified in this account and region, and only ses:SendEmail. Set `sesIdentity` to scope it to one identity (docs/deployment.md).",
          appliesTo: ["Resource::*"],
        },
      ],
      true,
    );
  }
}
