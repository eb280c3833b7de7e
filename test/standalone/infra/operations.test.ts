import { Annotations, Match } from "aws-cdk-lib/assertions";
import {
  INTAKE_P99_THRESHOLD_MS,
  OUTBOUND_FAILURE_THRESHOLD_PERCENT,
  QUEUE_AGE_THRESHOLD_SECONDS,
  SES_BOUNCE_RATE_THRESHOLD,
  SES_COMPLAINT_RATE_THRESHOLD,
} from "../../../infra/alarms";
import { API_METRICS_NAMESPACE, familyCondition, ROUTE_FAMILIES } from "../../../infra/api-metrics";
import { ACCESS_LOG_FIELDS, ACCESS_LOG_FORMAT } from "../../../infra/http-api";
import { BUSINESS_METRIC_DIMENSIONS, GRAPHED_ROUTES } from "../../../infra/ops-dashboard";
import { METRIC, METRICS_NAMESPACE } from "../../../lib/metrics/catalog";
import { SIGNED_IN_AUTH_ROUTES } from "./signed-in-routes";
import { inletFunctions, loadApp, ofType, onlyLogicalId, type Resource, type Synthesized, synth } from "./support";

/** What an operator sees of the running service: the dashboard, the alarm topic and its alarms, tracing on demand, the access log. */

let app: Synthesized;
let resources: Record<string, Resource>;

beforeAll(() => {
  app = loadApp();
  ({ resources } = app);
});

/** Every output of every nested template, by name: the parent reads nested values through them. */
function nestedOutputs(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { template } of app.templates.slice(1)) {
    const json = template.toJSON() as { Outputs?: Record<string, { Value: unknown }> };
    for (const [name, output] of Object.entries(json.Outputs ?? {})) out[name] = output.Value;
  }
  return out;
}

/** The logical id a dashboard token stands for, following a nested stack's output to its resource. */
function logicalIdOf(token: unknown): string | undefined {
  const t = token as { Ref?: string; "Fn::GetAtt"?: [string, string] };
  if (typeof t.Ref === "string") return t.Ref;
  const getAtt = t["Fn::GetAtt"];
  if (getAtt?.[1].startsWith("Outputs.")) return logicalIdOf(nestedOutputs()[getAtt[1].slice("Outputs.".length)]);
  if (getAtt) return getAtt[0];
  return undefined;
}

/** The dashboard body with each token replaced by `@<logical id>` (or `@AWS::Region`), parsed. */
function dashboardBody(): { widgets: { type: string; properties: Record<string, any> }[] } {
  const [, dashboard] = ofType(resources, "AWS::CloudWatch::Dashboard")[0] as [string, Resource];
  const body = dashboard.Properties.DashboardBody as { "Fn::Join": [string, unknown[]] };
  const text = body["Fn::Join"][1]
    .map((part) => (typeof part === "string" ? part : `@${logicalIdOf(part) ?? JSON.stringify(part)}`))
    .join("");
  return JSON.parse(text);
}

/** Account-level metrics with no resource dimension: allowed on the dashboard, and only these. */
const ACCOUNT_LEVEL = new Set([
  "AWS/SES Reputation.BounceRate",
  "AWS/SES Reputation.ComplaintRate",
  "AWS/Lambda ConcurrentExecutions",
]);

/** The resource type each AWS namespace's dimension must point at. */
const NAMESPACE_RESOURCE: Record<string, string> = {
  "AWS/Lambda": "AWS::Lambda::Function",
  "AWS/DynamoDB": "AWS::DynamoDB::Table",
  "AWS/SQS": "AWS::SQS::Queue",
  "AWS/EventBridge/Pipes": "AWS::Pipes::Pipe",
};

describe("CloudWatch dashboard", () => {
  test("one dashboard, named after the stack and its region, its URL a stack output", () => {
    const dashboards = ofType(resources, "AWS::CloudWatch::Dashboard");
    expect(dashboards).toHaveLength(1);
    const [, dashboard] = dashboards[0] as [string, Resource];
    expect(dashboard.Properties.DashboardName).toEqual({ "Fn::Join": ["", ["Inlet-", { Ref: "AWS::Region" }]] });
    const outputs = (app.template.toJSON() as { Outputs: Record<string, { Value: unknown }> }).Outputs;
    expect(JSON.stringify(outputs.OperationsDashboardUrl?.Value)).toContain("#dashboards/dashboard/Inlet-");
  });

  test("every widget's metric belongs to a resource of the stack, the access log's filters or the catalog", () => {
    const filterNames = new Set(
      ofType(resources, "AWS::Logs::MetricFilter").map(([, r]) => r.Properties.MetricTransformations[0].MetricName as string),
    );
    const catalog = new Set<string>(Object.values(METRIC));
    const seen = new Set<string>();
    const widgets = dashboardBody().widgets.filter((w) => w.type === "metric");
    expect(widgets.length).toBeGreaterThan(20);
    for (const widget of widgets) {
      const metrics = widget.properties.metrics as unknown[][];
      expect([widget.properties.title, metrics.length]).not.toEqual([widget.properties.title, 0]);
      for (const entry of metrics) {
        const options = entry.find((e) => typeof e === "object") as { expression?: string } | undefined;
        if (options?.expression?.startsWith("SEARCH(")) {
          const match = /^SEARCH\('\{([^}]+)\} MetricName="([A-Za-z]+)"'/.exec(options.expression);
          expect([options.expression, match?.[1]?.split(",")[0]]).toEqual([options.expression, METRICS_NAMESPACE]);
          expect(catalog.has(match?.[2] as string)).toBe(true);
          seen.add(match?.[2] as string);
          continue;
        }
        if (options?.expression) continue; // metric math over the entries checked here
        const [namespace, metricName, ...rest] = entry.filter((e) => typeof e === "string") as string[];
        const where = `${widget.properties.title}: ${namespace} ${metricName}`;
        if (namespace === METRICS_NAMESPACE) {
          expect([where, catalog.has(metricName as string)]).toEqual([where, true]);
        } else if (namespace === API_METRICS_NAMESPACE) {
          expect([where, filterNames.has(metricName as string)]).toEqual([where, true]);
        } else if (rest.length === 0) {
          expect([where, ACCOUNT_LEVEL.has(`${namespace} ${metricName}`)]).toEqual([where, true]);
        } else {
          const refs = rest.filter((value) => value.startsWith("@")).map((value) => value.slice(1));
          const type = NAMESPACE_RESOURCE[namespace as string];
          expect([where, type !== undefined && refs.length > 0]).toEqual([where, true]);
          for (const id of refs) expect([where, resources[id]?.Type]).toEqual([where, type]);
        }
      }
    }
    // Every business metric of the catalog is graphed.
    expect([...seen].sort()).toEqual([...catalog].sort());
  });

  test("the Lambda row graphs intake, the consumer and the heaviest routes; the API row each route family", () => {
    const titles = dashboardBody().widgets.map((w) => w.properties.title ?? w.properties.markdown);
    for (const family of ["Intake", "Authentication", "Management"]) {
      expect(titles).toContain(`${family}: requests, 4xx, 5xx`);
      expect(titles).toContain(`${family}: latency p50, p99 (ms)`);
    }
    const errors = dashboardBody().widgets.find((w) => w.properties.title === "Errors");
    const labels = ((errors?.properties.metrics ?? []) as unknown[][]).map((m) => (m.at(-1) as { label: string }).label);
    expect(labels.sort()).toEqual([...GRAPHED_ROUTES, "consumer"].sort());
  });

  test("the catalog's dimension sets are the dashboard's, for every metric", () => {
    expect(Object.keys(BUSINESS_METRIC_DIMENSIONS).sort()).toEqual(Object.values(METRIC).sort());
  });
});

describe("API metrics by route family, from the access log", () => {
  test("requests, 4xx, 5xx and latency per family, each a metric filter on the stage's access log", () => {
    const stage = ofType(resources, "AWS::ApiGatewayV2::Stage")[0]?.[1] as Resource;
    const logGroupId = stage.Properties.AccessLogSettings.DestinationArn["Fn::GetAtt"][0];
    const filters = ofType(resources, "AWS::Logs::MetricFilter").map(([, r]) => r.Properties);
    expect(filters).toHaveLength(ROUTE_FAMILIES.length * 4);
    for (const filter of filters) {
      expect(filter.LogGroupName).toEqual({ Ref: logGroupId });
      expect(filter.MetricTransformations[0].MetricNamespace).toBe(API_METRICS_NAMESPACE);
      // CloudWatch Logs takes a filter pattern of at most 1024 characters.
      expect((filter.FilterPattern as string).length).toBeLessThanOrEqual(1024);
      // Every field a pattern reads is one the access log writes.
      for (const [, field] of (filter.FilterPattern as string).matchAll(/\$\.([A-Za-z]+)/g)) {
        expect(Object.keys(ACCESS_LOG_FIELDS)).toContain(field);
      }
    }
    const latency = filters.find((f) => f.MetricTransformations[0].MetricName === "IntakeLatency");
    expect(latency).toMatchObject({
      FilterPattern: `{ ${familyCondition("intake")} && $.latencyMs >= 0 }`,
      MetricTransformations: [{ MetricValue: "$.latencyMs", Unit: "Milliseconds" }],
    });
    const serverErrors = filters.find((f) => f.MetricTransformations[0].MetricName === "ManagementServerErrors");
    // The signed-in routes under /auth count where they are throttled, in management (throttleFamily).
    const isRoute = SIGNED_IN_AUTH_ROUTES.map((route) => `$.route = "${route}"`).join(" || ");
    expect(serverErrors?.FilterPattern).toBe(
      `{ (($.path != "/api/v1/incoming/*" && $.path != "/api/v1/auth/*") || ${isRoute}) && $.status >= 500 }`,
    );
    const authRequests = filters.find((f) => f.MetricTransformations[0].MetricName === "AuthRequests");
    const isNotRoute = SIGNED_IN_AUTH_ROUTES.map((route) => `$.route != "${route}"`).join(" && ");
    expect(authRequests?.FilterPattern).toBe(`{ ($.path = "/api/v1/auth/*" && ${isNotRoute}) }`);
  });

  test("the access log line uses the functions' field names, numbers unquoted, no address, query string or body", () => {
    const stage = ofType(resources, "AWS::ApiGatewayV2::Stage")[0]?.[1] as Resource;
    const format = stage.Properties.AccessLogSettings.Format as string;
    expect(format).toBe(ACCESS_LOG_FORMAT);
    // With the variables API Gateway substitutes (numbers for status and latency), it is JSON.
    const line = JSON.parse(
      format.replace(/\$context\.status|\$context\.responseLatency/g, "200").replace(/\$context\.[a-zA-Z.]+/g, "x"),
    );
    expect(Object.keys(line)).toEqual(
      expect.arrayContaining(["requestId", "route", "status", "latencyMs", "integrationStatus", "integrationLatencyMs"]),
    );
    expect([line.status, line.latencyMs]).toEqual([200, 200]);
    expect(format).not.toMatch(/sourceIp|identity\.|querystring|requestBody|\$context\.authorizer/i);
  });
});

describe("alarms notify one encrypted, TLS-only topic", () => {
  test("every alarm, old and new, notifies the topic when it fires and when it recovers", () => {
    const topicId = onlyLogicalId(app.template, "AWS::SNS::Topic");
    const alarms = ofType(resources, "AWS::CloudWatch::Alarm");
    expect(alarms).toHaveLength(14);
    for (const [id, alarm] of alarms) {
      expect([id, alarm.Properties.AlarmActions, alarm.Properties.OKActions]).toEqual([
        id,
        [{ Ref: topicId }],
        [{ Ref: topicId }],
      ]);
      expect(alarm.Properties.AlarmDescription).toContain("docs/operations.md");
    }
  });

  test("the topic is encrypted with a rotated key CloudWatch may use, and refuses requests without TLS", () => {
    const topic = ofType(resources, "AWS::SNS::Topic")[0]?.[1] as Resource;
    const keyId = topic.Properties.KmsMasterKeyId["Fn::GetAtt"][0] as string;
    const key = resources[keyId] as Resource;
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect(key.Properties.KeyPolicy.Statement).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          Principal: { Service: "cloudwatch.amazonaws.com" },
          Action: ["kms:Decrypt", "kms:GenerateDataKey*"],
        }),
      ]),
    );
    app.template.hasResourceProperties("AWS::SNS::TopicPolicy", {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
        ]),
      },
    });
    expect(ofType(resources, "AWS::SNS::Subscription")).toEqual([]);
  });

  test("alarmEmail subscribes one address; anything else stops synth", () => {
    const { resources: withEmail } = synth({ alarmEmail: "oncall@example.com" });
    const subscriptions = ofType(withEmail, "AWS::SNS::Subscription").map(([, r]) => r.Properties);
    expect(subscriptions).toEqual([expect.objectContaining({ Protocol: "email", Endpoint: "oncall@example.com" })]);
    expect(() => synth({ alarmEmail: "not an address" })).toThrow(/alarmEmail/);
    expect(() => synth({ alarmEmail: "a@example.com,b@example.com" })).toThrow(/alarmEmail.*one email address/);
  });

  const alarmWith = (match: (p: Record<string, any>) => boolean) =>
    ofType(resources, "AWS::CloudWatch::Alarm")
      .map(([, r]) => r.Properties)
      .filter(match);

  test("intake p99 latency, any table throttling, a queue falling behind", () => {
    expect(alarmWith((p) => p.MetricName === "IntakeLatency")).toEqual([
      expect.objectContaining({
        Namespace: API_METRICS_NAMESPACE,
        ExtendedStatistic: "p99",
        Threshold: INTAKE_P99_THRESHOLD_MS,
        EvaluationPeriods: 3,
        DatapointsToAlarm: 3,
      }),
    ]);
    const throttles = alarmWith((p) => JSON.stringify(p.Metrics ?? []).includes("ThrottleEvents"));
    expect(throttles).toHaveLength(1);
    const throttleMetrics = (
      (throttles[0]?.Metrics ?? []) as { MetricStat?: { Metric: { MetricName: string; Dimensions: { Name: string }[] } } }[]
    )
      .filter((m) => m.MetricStat)
      .map(
        (m) =>
          `${m.MetricStat?.Metric.MetricName}:${m.MetricStat?.Metric.Dimensions.map((d) => d.Name)
            .sort()
            .join("+")}`,
      );
    expect(throttleMetrics.sort()).toEqual(
      [
        "ReadThrottleEvents:TableName",
        "WriteThrottleEvents:TableName",
        "ReadThrottleEvents:GlobalSecondaryIndexName+TableName",
        "WriteThrottleEvents:GlobalSecondaryIndexName+TableName",
      ].sort(),
    );
    expect(throttles[0]).toMatchObject({ Threshold: 0, ComparisonOperator: "GreaterThanThreshold" });
    expect(alarmWith((p) => p.MetricName === "ApproximateAgeOfOldestMessage")).toEqual([
      expect.objectContaining({ Namespace: "AWS/SQS", Statistic: "Maximum", Threshold: QUEUE_AGE_THRESHOLD_SECONDS }),
    ]);
  });

  test("the outbound failure rate is (retried + gave up) / all attempts, from the catalog's metric", () => {
    const [outbound] = alarmWith((p) => JSON.stringify(p.Metrics ?? []).includes(METRIC.outboundDeliveries));
    expect(outbound?.Threshold).toBe(OUTBOUND_FAILURE_THRESHOLD_PERCENT);
    const expression = ((outbound?.Metrics ?? []) as { Expression?: string }[]).find((m) => m.Expression)?.Expression;
    expect(expression).toMatch(/^IF\(\(.+\) >= 10, 100 \* \(FILL\(retried, 0\) \+ FILL\(gaveup, 0\)\) \/ \(.+\), 0\)$/);
    const outcomes = (
      (outbound?.Metrics ?? []) as { MetricStat?: { Metric: { Namespace: string; Dimensions: { Value: string }[] } } }[]
    )
      .filter((m) => m.MetricStat)
      .map((m) => {
        expect(m.MetricStat?.Metric.Namespace).toBe(METRICS_NAMESPACE);
        return m.MetricStat?.Metric.Dimensions[0]?.Value;
      });
    expect(outcomes.sort()).toEqual(["delivered", "endpoint_disabled", "gave_up", "retried"]);
  });

  test("SES bounce and complaint rates warn at SES's review levels, half its pause levels", () => {
    expect(
      alarmWith((p) => p.Namespace === "AWS/SES")
        .map((p) => [p.MetricName, p.Threshold])
        .sort(),
    ).toEqual(
      [
        ["Reputation.BounceRate", SES_BOUNCE_RATE_THRESHOLD],
        ["Reputation.ComplaintRate", SES_COMPLAINT_RATE_THRESHOLD],
      ].sort(),
    );
    expect([SES_BOUNCE_RATE_THRESHOLD, SES_COMPLAINT_RATE_THRESHOLD]).toEqual([0.05, 0.001]);
  });
});

describe("tracing on demand", () => {
  test("off by default: no active tracing, no TRACING variable, no X-Ray grant", () => {
    for (const fn of inletFunctions(app.template)) {
      expect(fn.Properties.TracingConfig).toBeUndefined();
      expect(fn.Properties.Environment.Variables.TRACING).toBeUndefined();
    }
    expect(JSON.stringify(resources)).not.toContain("xray:");
  });

  test("-c tracing=on: every function traces actively, knows TRACING=on, may write traces; cdk-nag stays clean", () => {
    const traced = synth({ tracing: "on" });
    const functions = inletFunctions(traced.template);
    expect(functions.length).toBeGreaterThan(50);
    for (const fn of functions) {
      expect(fn.Properties.TracingConfig).toEqual({ Mode: "Active" });
      expect(fn.Properties.Environment.Variables.TRACING).toBe("on");
      const roleId = fn.Properties.Role["Fn::GetAtt"][0] as string;
      const actions = ofType(traced.resources, "AWS::IAM::Policy")
        .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
        .flatMap(([, p]) => p.Properties.PolicyDocument.Statement.flatMap((s: { Action: string | string[] }) => s.Action));
      expect(actions).toEqual(expect.arrayContaining(["xray:PutTraceSegments", "xray:PutTelemetryRecords"]));
    }
    const findings = [
      ...Annotations.fromStack(traced.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...Annotations.fromStack(traced.stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((f) => `${f.id}: ${String(f.entry.data).split(":")[0]}`)).toEqual([]);
    expect(() => synth({ tracing: "sometimes" })).toThrow(/tracing.*"on" or "off"/);
  });
});
