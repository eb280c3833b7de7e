import type { Template } from "aws-cdk-lib/assertions";
import { EMAIL_EVENTS, QUEUE_CONSUMER, ROUTES, type RouteDef } from "../../functions/routes";
import { FUNCTION_DEFAULTS } from "../../infra/inlet-function";
import { grantOf, TABLE_WRITES } from "../../infra/table-grants";
import {
  actionsOf,
  asList,
  functionOf,
  inletFunctions,
  loadApp,
  onlyLogicalId,
  type Resource,
  type Statement,
  statementsOf,
} from "./support";

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
  test("one function per route entry and the queue consumer, nothing else", () => {
    // Besides them, the SES events' function (EMAIL_EVENTS), aws-s3-deployment's function that
    // copies the dashboard into its bucket, and the one that empties the buckets when they are
    // deleted (autoDeleteObjects).
    expect(inletFunctions(template)).toHaveLength(ROUTES.length + 1);
    template.resourceCountIs("AWS::Lambda::Function", ROUTES.length + 4);
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
        LoggingConfig: { LogFormat: "JSON" },
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

describe("least privilege from the route table and infra/table-grants.ts", () => {
  const tableArn = () => ({ "Fn::GetAtt": [tableId, "Arn"] });
  const sortJson = (list: unknown[]) => [...list].sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  /** A role's DynamoDB statements, each as {actions, resources, condition}, sorted. */
  const dynamoStatements = (statements: Statement[]) =>
    statements
      .filter((st) => actionsOf([st]).some((a) => a.startsWith("dynamodb:")))
      .map((st) => ({
        actions: actionsOf([st]).sort(),
        resources: sortJson(asList(st.Resource)),
        condition: st.Condition ?? null,
      }))
      .sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  /** What grantOf(route) must become, in the same shape. */
  const expected = (route: RouteDef) => {
    const grant = grantOf(route);
    if (grant.access === "none") return [];
    const like = (prefixes: readonly string[]) => ({
      "ForAllValues:StringLike": { "dynamodb:LeadingKeys": prefixes.map((p) => (p.endsWith("#") ? `${p}*` : p)) },
    });
    const out: { actions: string[]; resources: unknown[]; condition: unknown }[] = [
      {
        actions: ["dynamodb:BatchGetItem", "dynamodb:ConditionCheckItem", "dynamodb:GetItem", "dynamodb:Query"],
        resources: sortJson([tableArn(), { "Fn::Join": ["", [tableArn(), "/index/gsi1"]] }]),
        condition: null,
      },
    ];
    const byPrefixes = new Map<string, string[]>();
    for (const [op, prefixes] of Object.entries(grant.writes)) {
      const id = JSON.stringify([...(prefixes ?? [])].sort());
      byPrefixes.set(id, [...(byPrefixes.get(id) ?? []), `dynamodb:${op}`]);
    }
    for (const [id, actions] of byPrefixes) {
      out.push({ actions: actions.sort(), resources: [tableArn()], condition: like(JSON.parse(id)) });
    }
    if (grant.bookkeeping) {
      out.push({ actions: ["dynamodb:UpdateItem"], resources: [tableArn()], condition: like(["COUNTER#"]) });
      out.push({
        actions: ["dynamodb:UpdateItem"],
        resources: [tableArn()],
        condition: {
          ...like(["APIKEY#"]),
          "ForAllValues:StringEquals": { "dynamodb:Attributes": ["pk", "sk", "lastUsedAt", "creatorRole"] },
          StringEqualsIfExists: { "dynamodb:ReturnValues": ["NONE"] },
        },
      });
    }
    return out.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
  };

  test.each(routes.map((r) => [r.route, r] as const))("%s: exactly its declared table grant", (_key, route) => {
    expect(dynamoStatements(statementsOf(route))).toEqual(expected(route));
  });

  test("every write route declares its writes, and only routes of the table do", () => {
    const writeHandlers = routes.filter((r) => r.table === "write").map((r) => r.handler as string);
    for (const handler of writeHandlers)
      expect([handler, Object.keys(TABLE_WRITES[handler] ?? {}).length > 0]).toEqual([handler, true]);
    expect(Object.keys(TABLE_WRITES).sort()).toEqual([...writeHandlers, QUEUE_CONSUMER.handler, EMAIL_EVENTS.handler].sort());
  });

  test("the public functions cannot delete what they do not own; read-only routes write only bookkeeping", () => {
    const deletes = (key: string) =>
      statementsOf(routes.find((r) => r.route === key) as RouteDef)
        .filter((st) => actionsOf([st]).some((a) => a === "dynamodb:DeleteItem" || a === "dynamodb:BatchWriteItem"))
        .map((st) => st.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"]);
    expect(deletes("POST /api/v1/incoming/{webhookId}")).toEqual([["DUP#*"]]);
    expect(deletes("POST /api/v1/auth/login")).toEqual([]);
    expect(deletes("POST /api/v1/auth/signup")).toEqual([["INVITE#*", "VERIFY#*"]]);
    for (const route of routes.filter((r) => r.table === "read")) {
      for (const st of statementsOf(route).filter((x) =>
        actionsOf([x]).some((a) => /^dynamodb:(Put|Delete|BatchWrite|Update)/.test(a)),
      )) {
        expect(actionsOf([st])).toEqual(["dynamodb:UpdateItem"]);
        const leading = st.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"] as string[];
        expect([["COUNTER#*"], ["APIKEY#*"]]).toContainEqual(leading);
        // An API key item: only its bookkeeping attributes.
        if (leading[0] === "APIKEY#*") expect(st.Condition?.["ForAllValues:StringEquals"]).toBeDefined();
      }
    }
  });

  test("no DynamoDB write without a partition condition, no Scan, no index wildcard", () => {
    for (const route of routes) {
      for (const st of statementsOf(route)) {
        const actions = actionsOf([st]);
        expect(actions).not.toContain("dynamodb:Scan");
        if (actions.some((a) => /dynamodb:(Put|Update|Delete|BatchWrite)/.test(a))) {
          expect(st.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"]).toBeDefined();
        }
        expect(JSON.stringify(st.Resource)).not.toContain("/index/*");
      }
    }
  });

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
