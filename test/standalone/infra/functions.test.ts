import type { Template } from "aws-cdk-lib/assertions";
import { ROUTES, type RouteDef } from "../../../functions/routes";
import { FUNCTION_DEFAULTS } from "../../../infra/inlet-function";
import { actionsOf, functionOf, inletFunctions, loadApp, onlyLogicalId, type Resource, statementsOf } from "./support";

const routes: readonly RouteDef[] = ROUTES;

let template: Template;
let resources: Record<string, Resource>;
let tableId: string;

beforeAll(() => {
  const app = loadApp();
  ({ template, resources } = app);
  tableId = onlyLogicalId(app.template, "AWS::DynamoDB::Table");
});

describe("functions", () => {
  test("one function per route entry, the queue consumer and the bookkeeper, nothing else", () => {
    // Besides them, the SES events' function (EMAIL_EVENTS), the digest run (DIGESTS),
    // aws-s3-deployment's function that copies the dashboard into its bucket, and the one that
    // empties the buckets when they are deleted (autoDeleteObjects).
    expect(inletFunctions(template)).toHaveLength(ROUTES.length + 2);
    template.resourceCountIs("AWS::Lambda::Function", ROUTES.length + 6);
    for (const route of routes) functionOf(route);
  });

  test("runtime defaults everywhere: nodejs22.x, arm64, JSON logs, explicit memory and timeout", () => {
    for (const route of routes) {
      const [, fn] = functionOf(route);
      expect(fn.Properties).toMatchObject({
        Runtime: "nodejs22.x",
        Architectures: ["arm64"],
        Handler: "index.handler",
        MemorySize: route.memoryMb ?? FUNCTION_DEFAULTS.memoryMb,
        Timeout: route.timeoutSeconds ?? FUNCTION_DEFAULTS.timeoutSeconds,
        LoggingConfig: { LogFormat: "JSON", SystemLogLevel: "WARN" },
      });
      // Source maps are uploaded but not enabled at runtime (cold start cost).
      expect(fn.Properties.Environment.Variables.NODE_OPTIONS).toBeUndefined();
    }
  });

  test("every function logs to its own log group with a retention", () => {
    const groups = new Set<string>();
    for (const route of routes) {
      const [, fn] = functionOf(route);
      const groupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
      expect(resources[groupId]?.Type).toBe("AWS::Logs::LogGroup");
      expect(resources[groupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
      groups.add(groupId);
    }
    expect(groups.size).toBe(ROUTES.length);
  });

  test("environment follows the route entry: TABLE_NAME with table access, QUEUE_URL with send, BASE_URL always", () => {
    for (const route of routes) {
      const vars = functionOf(route)[1].Properties.Environment.Variables;
      if (route.table === "none") expect(vars.TABLE_NAME).toBeUndefined();
      else expect(vars.TABLE_NAME).toEqual({ Ref: tableId });
      if (route.queue === "send") expect(vars.QUEUE_URL).toBeDefined();
      else expect(vars.QUEUE_URL).toBeUndefined();
      expect(vars.BASE_URL).toEqual({
        "Fn::Join": [
          "",
          ["https://", { "Fn::GetAtt": [onlyLogicalId(template, "AWS::CloudFront::Distribution"), "DomainName"] }],
        ],
      });
    }
  });
});

describe("least privilege beyond the table (the table grants: grants.test.ts)", () => {
  test("routes without table access get no DynamoDB permission", () => {
    for (const route of routes.filter((r) => r.table === "none")) {
      expect(actionsOf(statementsOf(route)).filter((a) => a.startsWith("dynamodb:"))).toEqual([]);
    }
  });

  test("only routes with queue: send may send to the queue", () => {
    for (const route of routes) {
      const sends = actionsOf(statementsOf(route)).filter((a) => a.startsWith("sqs:"));
      if (route.queue === "send") expect(sends).toContain("sqs:SendMessage");
      else expect(sends).toEqual([]);
    }
  });

  test("no function role has a wildcard action", () => {
    for (const route of routes) {
      for (const action of actionsOf(statementsOf(route))) expect(action).not.toMatch(/\*/);
    }
  });
});
