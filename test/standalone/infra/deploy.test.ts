import { App, Aspects } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { ROUTES } from "../../../functions/routes";
import { ROUTE_FAMILY_THROTTLES, SESSION_ROUTES } from "../../../infra/http-api";
import { EMAIL_EVENTS_DELIVERY, EMAIL_EVENTS_FUNCTION_RETRIES } from "../../../infra/notifications";
import {
  addSignInFirewall,
  BLOCKED_BODY,
  FIREWALL_STACK_ID,
  RATE_WINDOW_SECONDS,
  SignInFirewallStack,
  signInPaths,
} from "../../../infra/sign-in-firewall";
import { SIGNED_IN_AUTH_ROUTES } from "./signed-in-routes";
import { isAutoDeleteStatement, loadApp, ofType, onlyLogicalId, type Resource, type Synthesized, synth } from "./support";

/**
 * What an operator needs to trust the deploy. Alarms can reach a person, the buckets
 * that hold only copies empty themselves on delete, a second region's deployment names its
 * account-wide CloudFront resources apart, a login flood cannot lock signed-in people out, the
 * optional sign-in firewall, and the small ones (the stage's order, lost SES events seen).
 */

let app: Synthesized;
let resources: Record<string, Resource>;
beforeAll(() => {
  app = loadApp();
  ({ resources } = app);
});

const only = (res: Record<string, Resource>, type: string) => {
  const found = ofType(res, type);
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};

describe("alarms reach a person", () => {
  test("the TLS-only topic policy lets CloudWatch publish, for this account's alarms only, and allows nothing else", () => {
    const [topicId] = only(resources, "AWS::SNS::Topic");
    const [, policy] = only(resources, "AWS::SNS::TopicPolicy");
    expect(policy.Properties.Topics).toEqual([{ Ref: topicId }]);
    const statements = policy.Properties.PolicyDocument.Statement as Record<string, unknown>[];
    expect(statements.filter((s) => s.Effect === "Allow")).toEqual([
      {
        Sid: "CloudWatchAlarmsPublish",
        Effect: "Allow",
        Principal: { Service: "cloudwatch.amazonaws.com" },
        Action: "sns:Publish",
        Resource: { Ref: topicId },
        Condition: {
          StringEquals: { "aws:SourceAccount": { Ref: "AWS::AccountId" } },
          ArnLike: {
            "aws:SourceArn": {
              "Fn::Join": [
                "",
                [
                  "arn:",
                  { Ref: "AWS::Partition" },
                  ":cloudwatch:",
                  { Ref: "AWS::Region" },
                  ":",
                  { Ref: "AWS::AccountId" },
                  ":alarm:*",
                ],
              ],
            },
          },
        },
      },
    ]);
    // The TLS rule stays, and denies CloudWatch nothing: it publishes over TLS.
    expect(statements.filter((s) => s.Effect === "Deny")).toEqual([
      expect.objectContaining({ Principal: "*", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
    ]);
  });

  test("with a pinned account and region, the condition names exactly that account's alarms", () => {
    const pinned = synth({}, { account: "123456789012", region: "eu-west-1" });
    const [, policy] = only(pinned.resources, "AWS::SNS::TopicPolicy");
    const allow = (policy.Properties.PolicyDocument.Statement as Record<string, any>[]).find((s) => s.Effect === "Allow");
    expect(allow?.Condition).toEqual({
      StringEquals: { "aws:SourceAccount": "123456789012" },
      ArnLike: { "aws:SourceArn": "arn:aws:cloudwatch:eu-west-1:123456789012:alarm:*" },
    });
  });
});

describe("buckets that hold only copies are emptied when the stack deletes them", () => {
  const bucketIds = () => {
    const distribution = only(resources, "AWS::CloudFront::Distribution")[1];
    const appBucket = distribution.Properties.DistributionConfig.Origins.find(
      (o: { S3OriginConfig?: unknown }) => o.S3OriginConfig,
    ).DomainName["Fn::GetAtt"][0] as string;
    const exportBucket = ofType(resources, "AWS::S3::Bucket").find(([, r]) => r.Properties.LifecycleConfiguration)?.[0] as string;
    return { appBucket, exportBucket };
  };

  test("the app bucket (its deployments have no key prefix) and the export bucket each have an auto-delete resource", () => {
    const { appBucket, exportBucket } = bucketIds();
    const cleaners = ofType(resources, "Custom::S3AutoDeleteObjects").map(([, r]) => r);
    expect(cleaners.map((c) => c.Properties.BucketName).sort((a, b) => a.Ref.localeCompare(b.Ref))).toEqual(
      [{ Ref: appBucket }, { Ref: exportBucket }].sort((a, b) => a.Ref.localeCompare(b.Ref)),
    );
    for (const bucketId of [appBucket, exportBucket]) {
      const bucket = resources[bucketId] as Resource & { DeletionPolicy?: string };
      expect(bucket.DeletionPolicy).toBe("Delete");
      expect(bucket.Properties.Tags).toEqual(expect.arrayContaining([{ Key: "aws-cdk:auto-delete-objects", Value: "true" }]));
      // The emptying runs while the bucket policy that lets it still exists.
      const [policyId, policy] = ofType(resources, "AWS::S3::BucketPolicy").find(
        ([, p]) => p.Properties.Bucket.Ref === bucketId,
      ) as [string, Resource];
      const cleaner = cleaners.find((c) => c.Properties.BucketName.Ref === bucketId) as Resource & { DependsOn?: string[] };
      expect(cleaner.DependsOn).toEqual([policyId]);
      // Its grant: list and delete objects (and lift the policy), nothing that reads them.
      const grant = (policy.Properties.PolicyDocument.Statement as Record<string, any>[]).filter(isAutoDeleteStatement);
      expect(grant).toHaveLength(1);
      expect(grant[0]?.Action).toEqual(["s3:DeleteObject*", "s3:GetBucket*", "s3:List*", "s3:PutBucketPolicy"]);
    }
    // The dashboard's deployments still do not retain what they copied.
    for (const [, deployment] of ofType(resources, "Custom::CDKBucketDeployment")) {
      expect(deployment.Properties.RetainOnDelete).toBe(false);
      expect(deployment.Properties.DestinationBucketKeyPrefix).toBeUndefined();
    }
  });
});

describe("a second region of the same account", () => {
  const names = (res: Record<string, Resource>) => [
    ...ofType(res, "AWS::CloudFront::ResponseHeadersPolicy").map(([, r]) => r.Properties.ResponseHeadersPolicyConfig.Name),
    ...ofType(res, "AWS::CloudFront::OriginAccessControl").map(([, r]) => r.Properties.OriginAccessControlConfig.Name),
  ];

  test("response headers policies and the origin access control are named with the region", () => {
    const all = names(resources);
    expect(all).toHaveLength(5);
    for (const name of all) {
      const [prefix, region] = (name as { "Fn::Join": [string, [string, unknown]] })["Fn::Join"][1];
      expect(region).toEqual({ Ref: "AWS::Region" });
      expect(prefix).toMatch(/^Inlet-Web-[A-Za-z0-9-]+-$/);
      // Within CloudFront's limits with the longest region name: 128 for a policy, 64 for an access control.
      expect(prefix.length + "ap-southeast-5".length).toBeLessThanOrEqual(64);
    }
    expect(new Set(all.map((n) => JSON.stringify(n))).size).toBe(5);
  });

  test("the same stack in two regions of one account gets different names", () => {
    const account = "123456789012";
    const ireland = names(synth({}, { account, region: "eu-west-1" }).resources);
    const virginia = names(synth({}, { account, region: "us-east-1" }).resources);
    expect(ireland.every((n) => typeof n === "string" && n.endsWith("-eu-west-1"))).toBe(true);
    expect(virginia.every((n) => typeof n === "string" && n.endsWith("-us-east-1"))).toBe(true);
    expect(ireland.filter((n) => virginia.includes(n))).toEqual([]);
  });
});

describe("a login flood cannot lock signed-in people out", () => {
  test("every signed-in route under /auth is throttled with management, the anonymous ones with the auth family", () => {
    const [, stage] = only(resources, "AWS::ApiGatewayV2::Stage");
    const settings = stage.Properties.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    const limits = (family: keyof typeof ROUTE_FAMILY_THROTTLES) => ({
      ThrottlingRateLimit: ROUTE_FAMILY_THROTTLES[family].rateLimit,
      ThrottlingBurstLimit: ROUTE_FAMILY_THROTTLES[family].burstLimit,
    });
    expect(SESSION_ROUTES).toEqual(SIGNED_IN_AUTH_ROUTES);
    for (const route of SIGNED_IN_AUTH_ROUTES) expect([route, settings[route]]).toEqual([route, limits("management")]);
    // What stays with signup and login: the routes a stranger calls, and only those.
    const anonymous = [
      "POST /api/v1/auth/signup",
      "POST /api/v1/auth/login",
      "POST /api/v1/auth/password-reset",
      "POST /api/v1/auth/password-reset/confirm",
      "POST /api/v1/auth/reclaim-email",
      "POST /api/v1/auth/email-links/describe",
    ];
    const inAuthFamily = Object.keys(settings).filter(
      (route) => settings[route]?.ThrottlingRateLimit === limits("auth").ThrottlingRateLimit,
    );
    expect(inAuthFamily.sort()).toEqual([...anonymous].sort());
    for (const route of anonymous) expect([route, settings[route]]).toEqual([route, limits("auth")]);
    const authRoutes = ROUTES.filter((r) => r.route.includes(" /api/v1/auth/"));
    expect(authRoutes.filter((r) => r.auth === "public").map((r) => r.route)).toEqual(anonymous);
  });
});

describe("the optional sign-in firewall", () => {
  const firewall = (context: Record<string, unknown>) => {
    const firewallApp = new App({ context });
    Aspects.of(firewallApp).add(new AwsSolutionsChecks());
    const stack = addSignInFirewall(firewallApp);
    return { firewallApp, stack };
  };

  test("off by default: no firewall stack, no web ACL on the distribution", () => {
    expect(firewall({}).stack).toBeUndefined();
    const [, distribution] = only(resources, "AWS::CloudFront::Distribution");
    expect(distribution.Properties.DistributionConfig.WebACLId).toBeUndefined();
    expect(ofType(resources, "AWS::WAFv2::WebACL")).toEqual([]);
  });

  test("-c signInRateLimit=100: a CloudFront web ACL in us-east-1 that blocks an address over 100 sign-in posts in 5 minutes with a 429", () => {
    const { stack } = firewall({ signInRateLimit: "100" });
    expect(stack).toBeInstanceOf(SignInFirewallStack);
    expect(stack?.node.id).toBe(FIREWALL_STACK_ID);
    expect(stack?.region).toBe("us-east-1");
    const template = Template.fromStack(stack as SignInFirewallStack);
    const [, acl] = only(template.toJSON().Resources as Record<string, Resource>, "AWS::WAFv2::WebACL");
    expect(acl.Properties).toMatchObject({ Scope: "CLOUDFRONT", DefaultAction: { Allow: {} } });
    expect(acl.Properties.Rules).toHaveLength(1);
    const [rule] = acl.Properties.Rules;
    expect(rule.Action).toEqual({ Block: { CustomResponse: { ResponseCode: 429, CustomResponseBodyKey: "RateLimited" } } });
    expect(JSON.parse(acl.Properties.CustomResponseBodies.RateLimited.Content)).toMatchObject({
      success: false,
      error: { code: "RATE_LIMITED" },
    });
    expect(acl.Properties.CustomResponseBodies.RateLimited.Content).toBe(BLOCKED_BODY);
    const rate = rule.Statement.RateBasedStatement;
    expect(rate).toMatchObject({ Limit: 100, EvaluationWindowSec: RATE_WINDOW_SECONDS, AggregateKeyType: "IP" });
    // Only POSTs to the public auth routes count: signup and login among them, never the session routes.
    const [method, paths] = rate.ScopeDownStatement.AndStatement.Statements;
    expect(method.ByteMatchStatement).toMatchObject({
      FieldToMatch: { Method: {} },
      PositionalConstraint: "EXACTLY",
      SearchString: "POST",
    });
    const matched = paths.OrStatement.Statements.map(
      (s: { ByteMatchStatement: { SearchString: string; PositionalConstraint: string; FieldToMatch: unknown } }) => {
        expect(s.ByteMatchStatement).toMatchObject({
          FieldToMatch: { UriPath: {} },
          PositionalConstraint: "EXACTLY",
          // Another spelling of the path (percent-encoded, extra slashes) is counted with it.
          TextTransformations: [
            { Priority: 0, Type: "URL_DECODE" },
            { Priority: 1, Type: "NORMALIZE_PATH" },
          ],
        });
        return s.ByteMatchStatement.SearchString;
      },
    );
    expect(matched).toEqual(signInPaths());
    expect(matched).toEqual(expect.arrayContaining(["/api/v1/auth/signup", "/api/v1/auth/login"]));
    for (const route of SESSION_ROUTES) expect(matched).not.toContain(route.split(" ")[1]);
    const publicAuthPosts = ROUTES.filter((r) => r.auth === "public" && r.route.startsWith("POST /api/v1/auth/"));
    expect(matched).toHaveLength(publicAuthPosts.length);
    template.hasOutput("WebAclArn", { Value: { "Fn::GetAtt": [Match.anyValue(), "Arn"] } });
    const findings = [
      ...Annotations.fromStack(stack as SignInFirewallStack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...Annotations.fromStack(stack as SignInFirewallStack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((f) => f.id)).toEqual([]);
  });

  test("a limit WAF would refuse stops synth", () => {
    for (const bad of ["5", "abc", "12.5", "-100"]) expect(() => firewall({ signInRateLimit: bad })).toThrow(/signInRateLimit/);
  });

  test("-c webAclArn=... attaches the web ACL to the distribution; anything but a CloudFront web ACL's ARN stops synth", () => {
    const arn = "arn:aws:wafv2:us-east-1:123456789012:global/webacl/InletSignIn-x1/0a1b2c3d-4e5f-4789-abcd-ef0123456789";
    const attached = synth({ webAclArn: arn });
    const [, distribution] = only(attached.resources, "AWS::CloudFront::Distribution");
    expect(distribution.Properties.DistributionConfig.WebACLId).toBe(arn);
    const findings = Annotations.fromStack(attached.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-CFR2.*"));
    expect(findings).toEqual([]);
    for (const bad of [
      "arn:aws:wafv2:eu-west-1:123456789012:regional/webacl/x/0a1b2c3d-4e5f-4789-abcd-ef0123456789",
      "not-an-arn",
    ]) {
      expect(() => synth({ webAclArn: bad })).toThrow(/webAclArn/);
    }
  });
});

describe("small ones", () => {
  test("the stage, whose route settings name $default, depends on the $default route", () => {
    const [, stage] = only(resources, "AWS::ApiGatewayV2::Stage");
    const defaultRoute = ofType(resources, "AWS::ApiGatewayV2::Route").find(([, r]) => r.Properties.RouteKey === "$default");
    expect(defaultRoute).toBeDefined();
    expect(Object.keys(stage.Properties.RouteSettings)).toContain("$default");
    expect((stage as Resource & { DependsOn?: string[] }).DependsOn).toContain(defaultRoute?.[0]);
  });

  test("a lost SES event lands in a dead-letter queue, whichever way it was lost, and two alarms say so", () => {
    const [ruleId, rule] = only(resources, "AWS::Events::Rule");
    const [target] = rule.Properties.Targets;
    const dlqId = target.DeadLetterConfig.Arn["Fn::GetAtt"][0] as string;
    expect(resources[dlqId]?.Type).toBe("AWS::SQS::Queue");
    expect(resources[dlqId]?.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    expect(target.RetryPolicy).toEqual({
      MaximumEventAgeInSeconds: EMAIL_EVENTS_DELIVERY.maxEventAge.toSeconds(),
      MaximumRetryAttempts: EMAIL_EVENTS_DELIVERY.retryAttempts,
    });
    const functionId = target.Arn["Fn::GetAtt"][0] as string;
    // The function's failures, after Lambda's retries, go to the same queue.
    const invokeConfig = ofType(resources, "AWS::Lambda::EventInvokeConfig")
      .map(([, r]) => r)
      .find((r) => r.Properties.FunctionName.Ref === functionId) as Resource;
    expect(invokeConfig.Properties).toEqual({
      FunctionName: { Ref: functionId },
      Qualifier: "$LATEST",
      MaximumRetryAttempts: EMAIL_EVENTS_FUNCTION_RETRIES,
      DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [dlqId, "Arn"] } } },
    });
    // The function's role may send to that queue, and to no other.
    const roleId = (resources[functionId] as Resource).Properties.Role["Fn::GetAtt"][0] as string;
    const sqsStatements = ofType(resources, "AWS::IAM::Policy")
      .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
      .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
      .filter((st) => JSON.stringify(st.Action).includes("sqs:"));
    expect(sqsStatements).toEqual([
      expect.objectContaining({
        Action: ["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"],
        Resource: { "Fn::GetAtt": [dlqId, "Arn"] },
      }),
    ]);
    // EventBridge may send to the queue for this rule only; the queue refuses plain HTTP.
    const [, queuePolicy] = ofType(resources, "AWS::SQS::QueuePolicy").find(([, p]) => p.Properties.Queues[0].Ref === dlqId) as [
      string,
      Resource,
    ];
    expect(queuePolicy.Properties.PolicyDocument.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        expect.objectContaining({
          Effect: "Allow",
          Principal: { Service: "events.amazonaws.com" },
          Action: "sqs:SendMessage",
          Condition: { ArnEquals: { "aws:SourceArn": { "Fn::GetAtt": [ruleId, "Arn"] } } },
        }),
      ]),
    );
    const topicId = onlyLogicalId(app.template, "AWS::SNS::Topic");
    const alarms = ofType(resources, "AWS::CloudWatch::Alarm").map(([, a]) => a.Properties);
    const errors = alarms.filter((a) => a.MetricName === "Errors" && a.Dimensions?.[0]?.Value?.Ref === functionId);
    const backlog = alarms.filter(
      (a) => a.MetricName === "ApproximateNumberOfMessagesVisible" && a.Dimensions?.[0]?.Value?.["Fn::GetAtt"]?.[0] === dlqId,
    );
    for (const alarm of [...errors, ...backlog]) {
      expect(alarm).toMatchObject({ Threshold: 0, ComparisonOperator: "GreaterThanThreshold", AlarmActions: [{ Ref: topicId }] });
    }
    expect([errors.length, backlog.length]).toEqual([1, 1]);
  });
});
