import { Match, type Template } from "aws-cdk-lib/assertions";
import { ROUTES, type RouteDef } from "../../../functions/routes";
import { functionOf, inletFunctions, loadApp, onlyLogicalId, type Resource, synth } from "./support";

const routes: readonly RouteDef[] = ROUTES;

let template: Template;
let resources: Record<string, Resource>;

beforeAll(() => {
  ({ template, resources } = loadApp());
});

describe("HTTP API", () => {
  test("one route per entry, $default included, each integrated with its own function", () => {
    const routeResources = Object.values(resources).filter((r) => r.Type === "AWS::ApiGatewayV2::Route");
    expect(routeResources.map((r) => r.Properties.RouteKey).sort()).toEqual(routes.map((r) => r.route).sort());

    for (const route of routes) {
      const [fnId] = functionOf(route);
      const routeResource = routeResources.find((r) => r.Properties.RouteKey === route.route);
      expect(routeResource?.Properties.AuthorizationType ?? "NONE").toBe("NONE");
      const target = routeResource?.Properties.Target["Fn::Join"][1] as unknown[];
      const integrationId = (target[1] as { Ref: string }).Ref;
      expect(resources[integrationId]?.Properties).toMatchObject({
        IntegrationType: "AWS_PROXY",
        PayloadFormatVersion: "2.0",
        IntegrationUri: { "Fn::GetAtt": [fnId, "Arn"] },
      });
    }
  });

  test("API Gateway does not answer CORS preflights itself (the handlers do)", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::Api", {
      ProtocolType: "HTTP",
      CorsConfiguration: Match.absent(),
    });
  });

  test("the $default stage auto-deploys, throttles and writes access logs to a retained-for-a-while log group", () => {
    template.resourceCountIs("AWS::ApiGatewayV2::Stage", 1);
    const stage = Object.values(resources).find((r) => r.Type === "AWS::ApiGatewayV2::Stage") as Resource;
    expect(stage.Properties).toMatchObject({
      StageName: "$default",
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) },
    });
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn["Fn::GetAtt"][0] as string;
    expect(resources[logGroupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
    // Status and latency are numbers, unquoted (test/standalone/infra/operations.test.ts checks the fields).
    const format = (stage.Properties.AccessLogSettings.Format as string).replace(/\$context\.(status|responseLatency)\b/g, "0");
    expect(JSON.parse(format)).toMatchObject({
      requestId: "$context.integration.requestId",
      gatewayRequestId: "$context.requestId",
      route: "$context.routeKey",
    });
  });

  test("an alarm on any 5xx over 5 minutes", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/ApiGateway",
      MetricName: "5xx",
      Dimensions: [{ Name: "ApiId", Value: { Ref: onlyLogicalId(template, "AWS::ApiGatewayV2::Api") } }],
      Statistic: "Sum",
      Period: 300,
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
    });
  });
});

describe("deployment settings from CDK context", () => {
  test("are validated by the config schema and reach every function", () => {
    const { template: custom } = synth({
      domainName: "forms.example.com",
      certificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789",
      platformAdminEmails: ["ops@example.com", "lead@example.com"],
      signupMode: "invite-only",
      defaultPlan: "pro",
    });
    const functions = inletFunctions(custom);
    // The route functions, the queue consumer and the bookkeeper.
    expect(functions).toHaveLength(ROUTES.length + 2);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        BASE_URL: "https://forms.example.com",
        PLATFORM_ADMIN_EMAILS: "ops@example.com,lead@example.com",
        SIGNUP_MODE: "invite-only",
        DEFAULT_PLAN: "pro",
      });
    }
  });

  test("an invalid value fails synth", () => {
    expect(() => synth({ signupMode: "closed" })).toThrow(/signupMode.*SIGNUP_MODE/);
    expect(() => synth({ platformAdminEmails: "not an email" })).toThrow(/platformAdminEmails.*PLATFORM_ADMIN_EMAILS/);
  });

  test("platformAdminEmails is required: synth stops with how to give it; the first-account rule is never deployed", () => {
    for (const missing of [undefined, "", " , ", []]) {
      expect(() => synth({ platformAdminEmails: missing })).toThrow(
        /platformAdminEmails is required.*cdk deploy -c platformAdminEmails=ops@example\.com/,
      );
    }
    const functions = inletFunctions(template);
    for (const fn of functions) {
      expect(fn.Properties.Environment.Variables.PLATFORM_ADMIN_EMAILS).toBe("ops@example.com");
      expect(fn.Properties.Environment.Variables.FIRST_ACCOUNT_ADMIN).toBeUndefined();
    }
  });
});
