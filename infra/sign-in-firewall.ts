import { type App, CfnOutput, Stack, type StackProps } from "aws-cdk-lib";
import { CfnWebACL } from "aws-cdk-lib/aws-wafv2";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import { ROUTES } from "../functions/routes";
import { FAMILY_PATH_PREFIX, parseRouteKey } from "./http-api";

/**
 * The optional per-address protection of signup and login (docs/deployment.md, "Sign-in
 * firewall"). API Gateway's route throttles are buckets shared by every caller, so they cap the
 * auth family's total but cannot tell one address from another; the functions count failed logins
 * per address and per email (lib/accounts.ts), but only after a function ran. A WAF rate-based
 * rule counts each client address at CloudFront's edge and answers 429 before anything is billed
 * behind it.
 *
 * A web ACL for CloudFront must be created in us-east-1, and the main stack deploys to whatever
 * region its credentials name, so the ACL is a stack of its own, pinned to us-east-1, that the app
 * defines only when `-c signInRateLimit=<requests per 5 minutes per address>` is given; the main
 * stack attaches it by ARN (`-c webAclArn=...`). Off by default: it costs a fixed monthly fee and
 * $0.60 per million requests, every request of the distribution counted, not only sign-ins.
 */

export const FIREWALL_CONTEXT = { rateLimit: "signInRateLimit", webAclArn: "webAclArn" } as const;

/** The firewall stack's id in the app (`npx cdk deploy InletSignInFirewall -c signInRateLimit=100`). */
export const FIREWALL_STACK_ID = "InletSignInFirewall";

/** WAF counts requests over this window (seconds) per address; the limit is per window. */
export const RATE_WINDOW_SECONDS = 300;

/** WAF's bounds on a rate-based rule's limit (https://docs.aws.amazon.com/waf/latest/developerguide/waf-rule-statement-type-rate-based-high-level-settings.html). */
const LIMIT_RANGE = { min: 10, max: 2_000_000_000 } as const;

/**
 * The routes the rule counts: every public POST of the auth family (signup, login, and the
 * address links a stranger can call), by their exact path, so a session read or sign-out of a
 * signed-in person is never counted.
 */
export function signInPaths(): string[] {
  return ROUTES.filter((route) => route.auth === "public" && route.route.startsWith(`POST ${FAMILY_PATH_PREFIX.auth}`)).map(
    (route) => {
      const { path } = parseRouteKey(route.route);
      if (path.includes("{")) throw new Error(`The sign-in firewall matches exact paths; ${route.route} has a parameter`);
      return path;
    },
  );
}

/** What a blocked request gets: the API's own error envelope and code, so clients read it as any 429. */
export const BLOCKED_BODY = JSON.stringify({
  success: false,
  error: { code: "RATE_LIMITED", message: "Too many sign-in requests from this address; try again in a few minutes" },
});

const read = (scope: Construct, key: string): string | undefined => {
  const raw: unknown = scope.node.tryGetContext(key);
  if (raw === undefined || raw === null) return undefined;
  const value = String(raw).trim();
  return value === "" ? undefined : value;
};

/** `-c signInRateLimit=<n>`: requests per address per 5 minutes, or undefined when not given. */
export function rateLimitFromContext(scope: Construct): number | undefined {
  const raw = read(scope, FIREWALL_CONTEXT.rateLimit);
  if (raw === undefined) return undefined;
  const limit = Number(raw);
  if (!/^\d+$/.test(raw) || limit < LIMIT_RANGE.min || limit > LIMIT_RANGE.max) {
    throw new Error(
      `Context value ${FIREWALL_CONTEXT.rateLimit}=${JSON.stringify(raw)} is not a whole number of requests per address per 5 minutes from ${LIMIT_RANGE.min} (e.g. ${FIREWALL_CONTEXT.rateLimit}=100)`,
    );
  }
  return limit;
}

/** A CloudFront web ACL's ARN: always in us-east-1, scope "global". */
const WEB_ACL_ARN = /^arn:aws[a-z-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[A-Za-z0-9_-]{1,128}\/[0-9a-f-]{36}$/;

/** `-c webAclArn=...`: the web ACL the distribution is attached to, or undefined. */
export function webAclArnFromContext(scope: Construct): string | undefined {
  const arn = read(scope, FIREWALL_CONTEXT.webAclArn);
  if (arn === undefined || WEB_ACL_ARN.test(arn)) return arn;
  throw new Error(
    `Context value ${FIREWALL_CONTEXT.webAclArn}=${JSON.stringify(arn)} is not the ARN of a CloudFront web ACL (arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>; the ${FIREWALL_STACK_ID} stack's output WebAclArn)`,
  );
}

const visibility = (metricName: string) => ({ cloudWatchMetricsEnabled: true, metricName, sampledRequestsEnabled: true });

/**
 * A byte match on the whole of `field`. A path is compared decoded and normalized
 * (`/api/v1/auth/%6cogin`, `/api//v1/./auth/login`), so another spelling of a sign-in path that
 * could still reach its route is counted with it.
 */
const exactly = (field: CfnWebACL.FieldToMatchProperty, value: string): CfnWebACL.StatementProperty => ({
  byteMatchStatement: {
    fieldToMatch: field,
    positionalConstraint: "EXACTLY",
    searchString: value,
    textTransformations:
      "uriPath" in field
        ? [
            { priority: 0, type: "URL_DECODE" },
            { priority: 1, type: "NORMALIZE_PATH" },
          ]
        : [{ priority: 0, type: "NONE" }],
  },
});

export interface SignInFirewallProps extends StackProps {
  /** Requests per client address per RATE_WINDOW_SECONDS to the sign-in paths before 429. */
  limit: number;
}

/** The web ACL: allow everything, except an address over the limit on the sign-in paths. */
export class SignInFirewallStack extends Stack {
  readonly webAcl: CfnWebACL;

  constructor(scope: Construct, id: string, props: SignInFirewallProps) {
    const { limit, ...stackProps } = props;
    super(scope, id, stackProps);
    const paths = signInPaths().map((path) => exactly({ uriPath: {} }, path));
    const onSignInPaths: CfnWebACL.StatementProperty = {
      andStatement: {
        statements: [
          exactly({ method: {} }, "POST"),
          paths.length === 1 ? (paths[0] as object) : { orStatement: { statements: paths } },
        ],
      },
    };
    this.webAcl = new CfnWebACL(this, "WebAcl", {
      description: "Inlet: signup and login limited per client address",
      scope: "CLOUDFRONT",
      defaultAction: { allow: {} },
      visibilityConfig: visibility("InletWebAcl"),
      customResponseBodies: { RateLimited: { contentType: "APPLICATION_JSON", content: BLOCKED_BODY } },
      rules: [
        {
          name: "SignInPerAddress",
          priority: 0,
          statement: {
            rateBasedStatement: {
              limit,
              evaluationWindowSec: RATE_WINDOW_SECONDS,
              // The viewer's address as CloudFront sees it (not a header a client could set).
              aggregateKeyType: "IP",
              scopeDownStatement: onSignInPaths,
            },
          },
          action: { block: { customResponse: { responseCode: 429, customResponseBodyKey: "RateLimited" } } },
          visibilityConfig: visibility("InletSignInPerAddress"),
        },
      ],
    });
    new CfnOutput(this, "OutputWebAclArn", {
      key: "WebAclArn",
      description: "Attach it: npx cdk deploy Inlet -c webAclArn=<this value> (docs/deployment.md, Sign-in firewall)",
      value: this.webAcl.attrArn,
    });
    NagSuppressions.addResourceSuppressions(this.webAcl, [
      {
        id: "AwsSolutions-WAF2",
        reason:
          "WAF logging needs a log destination of its own (aws-waf-logs-*) and would record every request of the distribution, intake URLs' ?key= secrets included. The rule's CloudWatch metrics and WAF's sampled requests (kept 3 hours) show what it blocks.",
      },
    ]);
  }
}

/**
 * Adds the firewall stack to the app when `-c signInRateLimit` is given (it is deployed on its own,
 * `npx cdk deploy InletSignInFirewall -c signInRateLimit=100`), in the account of the credentials.
 */
export function addSignInFirewall(app: App): SignInFirewallStack | undefined {
  const limit = rateLimitFromContext(app);
  if (limit === undefined) return undefined;
  return new SignInFirewallStack(app, FIREWALL_STACK_ID, {
    description: "Inlet: per-address limit on signup and login at CloudFront (a web ACL; CloudFront's must be in us-east-1)",
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: "us-east-1" },
    limit,
  });
}
