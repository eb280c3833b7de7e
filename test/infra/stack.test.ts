import { readFileSync } from "node:fs";
import { App, Aspects, type Stack } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { QUEUE_CONSUMER, ROUTES, type RouteDef } from "../../functions/routes";
import { EXPORT_RETENTION_DAYS } from "../../infra/exports";
import { FUNCTION_DEFAULTS } from "../../infra/inlet-function";
import { INTAKE_FILTER_PATTERNS } from "../../infra/intake-filter";
import {
  CONSUMER_MAX_BATCHING_WINDOW_SECONDS,
  INTAKE_MAX_RECEIVE_COUNT,
  INTAKE_VISIBILITY_TIMEOUT_SECONDS,
} from "../../infra/intake-pipeline";
import { InletStack } from "../../infra/stack";

/**
 * Property assertions on the synthesized template (no snapshot). Bundling is skipped through the
 * `aws:cdk:bundling-stacks` context, which NodejsFunction honours: assets point at the project
 * root instead of running esbuild 16 times. `npm run synth` still bundles for real.
 */
const cdkJson = JSON.parse(readFileSync(new URL("../../cdk.json", import.meta.url), "utf8")) as {
  context: Record<string, unknown>;
};

const routes: readonly RouteDef[] = ROUTES;

function synth(context: Record<string, unknown> = {}): { stack: Stack; template: Template } {
  const app = new App({ context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [], ...context } });
  const stack = new InletStack(app, "Inlet");
  Aspects.of(app).add(new AwsSolutionsChecks());
  return { stack, template: Template.fromStack(stack) };
}

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

let stack: Stack;
let template: Template;
let resources: Record<string, Resource>;
let tableId: string;

beforeAll(() => {
  ({ stack, template } = synth());
  resources = template.toJSON().Resources;
  tableId = onlyLogicalId(template, "AWS::DynamoDB::Table");
});

/** The function a route entry created, found by the description InletHttpApi gives it. */
function functionOf(route: RouteDef): [string, Resource] {
  const found = Object.entries(resources).filter(
    ([, r]) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === `Inlet ${route.route}`,
  );
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
}

/** Every statement of every policy attached to the function's execution role. */
function statementsOf(route: RouteDef): Statement[] {
  const [, fn] = functionOf(route);
  const roleId = fn.Properties.Role["Fn::GetAtt"][0] as string;
  const role = resources[roleId];
  expect(role?.Type).toBe("AWS::IAM::Role");
  expect(role?.Properties.ManagedPolicyArns ?? []).toEqual([]);
  expect(role?.Properties.Policies ?? []).toEqual([]);
  return Object.values(resources)
    .filter((r) => r.Type === "AWS::IAM::Policy" && asList(r.Properties.Roles).some((ref: any) => ref.Ref === roleId))
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}

const actionsOf = (statements: Statement[]) => statements.flatMap((s) => asList(s.Action));

describe("functions", () => {
  test("one function per route entry and the queue consumer, nothing else", () => {
    template.resourceCountIs("AWS::Lambda::Function", ROUTES.length + 1);
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
      expect(vars.BASE_URL).toEqual({ "Fn::GetAtt": [onlyLogicalId(template, "AWS::ApiGatewayV2::Api"), "ApiEndpoint"] });
    }
  });
});

describe("least privilege from the route table", () => {
  const WRITES = ["dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem"];
  const BOOKKEEPING_CONDITION = {
    "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["COUNTER#*", "APIKEY#*"] },
  };

  test.each(routes.filter((r) => r.table === "read").map((r) => [r.route, r] as const))(
    "read-only %s: reads, and updates only bookkeeping items",
    (_key, route) => {
      const statements = statementsOf(route);
      const actions = actionsOf(statements);
      expect(actions).toEqual(expect.arrayContaining(["dynamodb:GetItem", "dynamodb:Query"]));
      for (const write of WRITES) expect(actions).not.toContain(write);

      const updates = statements.filter((s) => asList(s.Action).includes("dynamodb:UpdateItem"));
      if (route.auth === "public") {
        expect(updates).toEqual([]);
      } else {
        expect(updates).toHaveLength(1);
        expect(updates[0]).toMatchObject({
          Effect: "Allow",
          Action: "dynamodb:UpdateItem",
          Resource: { "Fn::GetAtt": [tableId, "Arn"] },
          Condition: BOOKKEEPING_CONDITION,
        });
      }
    },
  );

  test.each(routes.filter((r) => r.table === "write").map((r) => [r.route, r] as const))(
    "write %s: may write the table",
    (_key, route) => {
      const actions = actionsOf(statementsOf(route));
      expect(actions).toEqual(expect.arrayContaining([...WRITES, "dynamodb:UpdateItem", "dynamodb:GetItem"]));
    },
  );

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
    expect(JSON.parse(stage.Properties.AccessLogSettings.Format)).toMatchObject({ requestId: "$context.requestId" });
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

describe("data store", () => {
  test("the table matches lib/store/table-definition.ts, with PITR, TTL, stream and gsi1", () => {
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      BillingMode: "PAY_PER_REQUEST",
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: "NEW_IMAGE" },
      TimeToLiveSpecification: { AttributeName: "ttl", Enabled: true },
      GlobalSecondaryIndexes: [
        {
          IndexName: "gsi1",
          KeySchema: [
            { AttributeName: "gsi1pk", KeyType: "HASH" },
            { AttributeName: "gsi1sk", KeyType: "RANGE" },
          ],
          Projection: { ProjectionType: "ALL" },
        },
      ],
      TableName: Match.absent(),
    });
  });

  test("stateful resources are retained and keep their logical ids", () => {
    // Renaming a construct id changes these and makes CloudFormation orphan the retained
    // resource and create an empty one: update these only with a migration plan.
    const stateful = Object.entries(resources).filter(([, r]) =>
      ["AWS::DynamoDB::Table", "AWS::SQS::Queue"].includes(r.Type),
    );
    expect(stateful.map(([id]) => id).sort()).toEqual(
      ["DataStoreTable1E9F5574", "IntakeQueueDeadLetter92F727E2", "IntakeQueueIntake3F254B08"].sort(),
    );
    for (const [, r] of stateful) {
      expect(r.DeletionPolicy).toBe("Retain");
      expect(r.UpdateReplacePolicy).toBe("Retain");
    }
  });
});

describe("intake pipeline", () => {
  const queueIds = () => {
    const queues = Object.entries(resources).filter(([, r]) => r.Type === "AWS::SQS::Queue");
    const intake = queues.find(([, r]) => r.Properties.RedrivePolicy);
    const dlq = queues.find(([, r]) => !r.Properties.RedrivePolicy);
    expect(queues).toHaveLength(2);
    return { intake: intake?.[0] as string, dlq: dlq?.[0] as string };
  };

  test("the intake queue redrives to the DLQ after a bounded number of receives", () => {
    const { intake, dlq } = queueIds();
    expect(resources[intake]?.Properties).toMatchObject({
      RedrivePolicy: { deadLetterTargetArn: { "Fn::GetAtt": [dlq, "Arn"] }, maxReceiveCount: INTAKE_MAX_RECEIVE_COUNT },
      VisibilityTimeout: INTAKE_VISIBILITY_TIMEOUT_SECONDS,
      SqsManagedSseEnabled: true,
    });
    expect(INTAKE_VISIBILITY_TIMEOUT_SECONDS).toBe(180);
    expect(resources[dlq]?.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
  });

  test("both queues refuse non-TLS requests", () => {
    const { intake, dlq } = queueIds();
    for (const queueId of [intake, dlq]) {
      template.hasResourceProperties("AWS::SQS::QueuePolicy", {
        Queues: [{ Ref: queueId }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
          ]),
        },
      });
    }
  });

  test("the pipe forwards the filtered stream records to the queue, with a DLQ for failures", () => {
    const { intake, dlq } = queueIds();
    const pipes = Object.values(resources).filter((r) => r.Type === "AWS::Pipes::Pipe");
    expect(pipes).toHaveLength(1);
    const pipe = pipes[0] as Resource;
    expect(pipe.Properties.Source).toEqual({ "Fn::GetAtt": [tableId, "StreamArn"] });
    expect(pipe.Properties.Target).toEqual({ "Fn::GetAtt": [intake, "Arn"] });

    const params = pipe.Properties.SourceParameters.DynamoDBStreamParameters;
    expect(params.StartingPosition).toBe("TRIM_HORIZON");
    expect(params.BatchSize).toBeGreaterThanOrEqual(1);
    expect(params.BatchSize).toBeLessThanOrEqual(10);
    // Bounded: -1 (the default) would retry a failing record until it expires.
    expect(params.MaximumRetryAttempts).toBeGreaterThanOrEqual(0);
    expect(params.MaximumRecordAgeInSeconds).toBeGreaterThan(0);
    expect(params.DeadLetterConfig).toEqual({ Arn: { "Fn::GetAtt": [dlq, "Arn"] } });

    const filters = pipe.Properties.SourceParameters.FilterCriteria.Filters as { Pattern: string }[];
    expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual(INTAKE_FILTER_PATTERNS);
    // FilterCriteria.Filters holds at most 5 patterns, ORed.
    expect(filters.length).toBeLessThanOrEqual(5);
  });

  test("the filter patterns pass inserted non-spam submissions, inserted or modified purge jobs, inserted release markers", () => {
    expect(INTAKE_FILTER_PATTERNS).toEqual([
      {
        eventName: ["INSERT"],
        dynamodb: { NewImage: { type: { S: ["submission"] }, isSpam: { BOOL: [false] } } },
      },
      { eventName: ["INSERT", "MODIFY"], dynamodb: { NewImage: { type: { S: ["purge"] } } } },
      { eventName: ["INSERT"], dynamodb: { NewImage: { type: { S: ["release"] } } } },
    ]);
  });

  test("the pipe's role reads the stream and sends to the two queues, nothing more", () => {
    const pipe = Object.values(resources).find((r) => r.Type === "AWS::Pipes::Pipe") as Resource;
    const roleId = pipe.Properties.RoleArn["Fn::GetAtt"][0] as string;
    expect(resources[roleId]?.Properties.AssumeRolePolicyDocument.Statement[0].Principal).toEqual({
      Service: "pipes.amazonaws.com",
    });
    const actions = Object.values(resources)
      .filter((r) => r.Type === "AWS::IAM::Policy" && asList(r.Properties.Roles).some((ref: any) => ref.Ref === roleId))
      .flatMap((r) => (r.Properties.PolicyDocument.Statement as Statement[]).flatMap((s) => asList(s.Action)));
    expect(new Set(actions.filter((a) => a.startsWith("dynamodb:")))).toEqual(
      new Set(["dynamodb:ListStreams", "dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator"]),
    );
    expect(actions).toContain("sqs:SendMessage");
    expect(actions.filter((a) => a.startsWith("dynamodb:") && /Item/.test(a))).toEqual([]);
  });

  test("an alarm fires as soon as the DLQ holds a message", () => {
    const { dlq } = queueIds();
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/SQS",
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [dlq, "QueueName"] } }],
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
    });
  });
});

describe("intake consumer", () => {
  const consumer = (): [string, Resource] => {
    const found = Object.entries(resources).filter(
      ([, r]) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === "Inlet intake queue consumer",
    );
    expect(found).toHaveLength(1);
    return found[0] as [string, Resource];
  };
  const intakeQueueId = () =>
    Object.entries(resources).find(([, r]) => r.Type === "AWS::SQS::Queue" && r.Properties.RedrivePolicy)?.[0] as string;

  function consumerStatements(): Statement[] {
    const [, fn] = consumer();
    const roleId = fn.Properties.Role["Fn::GetAtt"][0] as string;
    expect(resources[roleId]?.Properties.ManagedPolicyArns ?? []).toEqual([]);
    return Object.values(resources)
      .filter((r) => r.Type === "AWS::IAM::Policy" && asList(r.Properties.Roles).some((ref: any) => ref.Ref === roleId))
      .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
  }

  test("runs the QUEUE_CONSUMER entry with the runtime defaults and its own log group", () => {
    const [, fn] = consumer();
    expect(fn.Properties).toMatchObject({
      Runtime: "nodejs22.x",
      Architectures: ["arm64"],
      MemorySize: QUEUE_CONSUMER.memoryMb,
      Timeout: QUEUE_CONSUMER.timeoutSeconds,
      LoggingConfig: { LogFormat: "JSON" },
    });
    expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
    const groupId = fn.Properties.LoggingConfig.LogGroup.Ref as string;
    expect(resources[groupId]?.Properties.RetentionInDays).toBeGreaterThan(0);
  });

  test("reads the intake queue in batches and reports batch item failures", () => {
    const [fnId] = consumer();
    const mappings = Object.values(resources).filter((r) => r.Type === "AWS::Lambda::EventSourceMapping");
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({
      EventSourceArn: { "Fn::GetAtt": [intakeQueueId(), "Arn"] },
      FunctionName: { Ref: fnId },
      BatchSize: QUEUE_CONSUMER.batchSize,
      MaximumBatchingWindowInSeconds: CONSUMER_MAX_BATCHING_WINDOW_SECONDS,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
    expect(CONSUMER_MAX_BATCHING_WINDOW_SECONDS).toBeLessThanOrEqual(5);
  });

  test("the queue's visibility timeout is at least 6 times the consumer's timeout", () => {
    const [, fn] = consumer();
    const visibility = resources[intakeQueueId()]?.Properties.VisibilityTimeout as number;
    expect(visibility).toBeGreaterThanOrEqual(6 * (fn.Properties.Timeout as number));
  });

  test("may write the table, consume the intake queue and send to it (outbound webhook retries), nothing else", () => {
    const statements = consumerStatements();
    const actions = actionsOf(statements);
    const writes = ["dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:BatchWriteItem", "dynamodb:UpdateItem"];
    expect(actions).toEqual(expect.arrayContaining([...writes, "dynamodb:Query"]));
    expect(actions).toEqual(expect.arrayContaining(["sqs:ReceiveMessage", "sqs:DeleteMessage"]));
    // QUEUE_CONSUMER.queue === "send": lib/outbound/messages.ts chains delayed retry messages.
    expect(QUEUE_CONSUMER.queue).toBe("send");
    expect(actions).toContain("sqs:SendMessage");
    const [, fn] = consumer();
    expect(fn.Properties.Environment.Variables.QUEUE_URL).toEqual({ Ref: intakeQueueId() });
    // Only the intake queue, never the DLQ.
    for (const action of actions) expect(action).not.toMatch(/\*/);
    const sqsResources = statements.filter((s) => asList(s.Action).some((a) => a.startsWith("sqs:"))).map((s) => s.Resource);
    for (const resource of sqsResources) expect(resource).toEqual({ "Fn::GetAtt": [intakeQueueId(), "Arn"] });
  });

  test("an alarm fires when the consumer itself fails (throws or times out)", () => {
    const [fnId] = consumer();
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/Lambda",
      MetricName: "Errors",
      Dimensions: [{ Name: "FunctionName", Value: { Ref: fnId } }],
      Statistic: "Sum",
      Threshold: 0,
      ComparisonOperator: "GreaterThanThreshold",
    });
  });
});

describe("notification emails", () => {
  const consumerIn = (res: Record<string, Resource>): Resource =>
    Object.values(res).find(
      (r) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === "Inlet intake queue consumer",
    ) as Resource;
  /** Every statement naming an SES action, with the role it is attached to. */
  const sesStatements = (res: Record<string, Resource>) =>
    Object.values(res)
      .filter((r) => r.Type === "AWS::IAM::Policy")
      .flatMap((r) =>
        (r.Properties.PolicyDocument.Statement as Statement[])
          .filter((st) => actionsOf([st]).some((a) => a.startsWith("ses:")))
          .map((st) => ({ statement: st, roles: asList(r.Properties.Roles).map((ref: any) => ref.Ref as string) })),
      );

  test("only the consumer may send, only ses:SendEmail, on any identity when no sesIdentity is given (suppression justified)", () => {
    const roleId = consumerIn(resources).Properties.Role["Fn::GetAtt"][0] as string;
    const found = sesStatements(resources);
    expect(found).toEqual([{ statement: expect.objectContaining({ Effect: "Allow", Action: "ses:SendEmail", Resource: "*" }), roles: [roleId] }]);
    // The schema's default sender applies: no NOTIFY_FROM in the environment.
    expect(consumerIn(resources).Properties.Environment.Variables.NOTIFY_FROM).toBeUndefined();
  });

  test("notifyFrom and sesIdentity context: the sender reaches the consumer, the grant is scoped to the identity", () => {
    const { stack: custom, template: customTemplate } = synth({
      notifyFrom: "Acme Forms <forms@mail.example.com>",
      sesIdentity: "example.com",
    });
    const res = customTemplate.toJSON().Resources as Record<string, Resource>;
    expect(consumerIn(res).Properties.Environment.Variables.NOTIFY_FROM).toBe("Acme Forms <forms@mail.example.com>");
    const found = sesStatements(res);
    expect(found).toHaveLength(1);
    expect(found[0]?.statement.Action).toBe("ses:SendEmail");
    expect(found[0]?.statement.Resource).toEqual({
      "Fn::Join": [
        "",
        ["arn:", { Ref: "AWS::Partition" }, ":ses:", { Ref: "AWS::Region" }, ":", { Ref: "AWS::AccountId" }, ":identity/example.com"],
      ],
    });
    const warnings = Annotations.fromStack(custom).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(warnings).toEqual([]);
  });

  test("an invalid sender, or an identity that does not cover it, fails synth", () => {
    expect(() => synth({ notifyFrom: "not an address" })).toThrow(/notifyFrom.*NOTIFY_FROM/);
    expect(() => synth({ notifyFrom: "Forms <forms@example.com>\r\nBcc: x@evil.test" })).toThrow(/notifyFrom/);
    expect(() => synth({ notifyFrom: "forms@example.com", sesIdentity: "example.org" })).toThrow(/sesIdentity.*does not cover/);
    expect(() => synth({ notifyFrom: "forms@example.com", sesIdentity: "other@example.com" })).toThrow(/does not cover/);
    expect(() => synth({ notifyFrom: "forms@example.com", sesIdentity: "forms@example.com" })).not.toThrow();
  });
});

describe("export bucket", () => {
  const bucketId = () => onlyLogicalId(template, "AWS::S3::Bucket");

  test("is private, encrypted, TLS-only, and expires exports after a day", () => {
    const bucket = resources[bucketId()] as Resource;
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
      OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
    });
    expect(bucket.Properties.AccessControl).toBeUndefined();
    expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
    expect(bucket.Properties.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([expect.objectContaining({ Status: "Enabled", ExpirationInDays: EXPORT_RETENTION_DAYS })]),
    );
    expect(EXPORT_RETENTION_DAYS).toBe(1);
    const policies = Object.values(resources).filter(
      (r) => r.Type === "AWS::S3::BucketPolicy" && r.Properties.Bucket?.Ref === bucketId(),
    );
    expect(policies).toHaveLength(1);
    const statements = policies[0]?.Properties.PolicyDocument.Statement as Statement[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
      ]),
    );
    // Nothing in the bucket policy grants access; reading goes through presigned links only.
    expect(statements.filter((st) => st.Effect === "Allow")).toEqual([]);
  });

  test("only routes with bucket: write may use it: put and get under exports/, and EXPORT_BUCKET", () => {
    const writers = routes.filter((r) => r.bucket === "write");
    expect(writers.map((r) => r.route)).toEqual(["GET /api/v1/forms/{formId}/submissions/export"]);
    for (const route of routes) {
      const statements = statementsOf(route).filter((st) => asList(st.Action).some((a) => a.startsWith("s3:")));
      const vars = functionOf(route)[1].Properties.Environment.Variables;
      if (route.bucket === "write") {
        expect(statements).toEqual([
          expect.objectContaining({
            Effect: "Allow",
            Action: ["s3:GetObject", "s3:PutObject"],
            Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId(), "Arn"] }, "/exports/*"]] },
          }),
        ]);
        expect(vars.EXPORT_BUCKET).toEqual({ Ref: bucketId() });
      } else {
        expect([route.route, statements]).toEqual([route.route, []]);
        expect(vars.EXPORT_BUCKET).toBeUndefined();
      }
    }
  });

  test("the export route has room for a whole form: 29 s (under API Gateway's 30 s) and more memory", () => {
    const [, fn] = functionOf(routes.find((r) => r.bucket === "write") as RouteDef);
    expect(fn.Properties.Timeout).toBe(29);
    expect(fn.Properties.MemorySize).toBeGreaterThanOrEqual(1024);
  });
});

describe("cdk-nag AwsSolutions", () => {
  test("no unsuppressed errors", () => {
    const errors = Annotations.fromStack(stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(errors.map((e) => `${e.id}: ${String(e.entry.data).split(":")[0]}`)).toEqual([]);
  });

  test("no unsuppressed warnings", () => {
    const warnings = Annotations.fromStack(stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(warnings.map((w) => `${w.id}: ${String(w.entry.data).split(":")[0]}`)).toEqual([]);
  });
});

describe("deployment settings from CDK context", () => {
  test("are validated by the config schema and reach every function", () => {
    const { template: custom } = synth({
      baseUrl: "https://forms.example.com",
      platformAdminEmails: ["ops@example.com", "lead@example.com"],
      signupMode: "invite-only",
      defaultPlan: "pro",
    });
    const functions = Object.values(custom.findResources("AWS::Lambda::Function")) as Resource[];
    expect(functions).toHaveLength(ROUTES.length + 1);
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
  });
});
