import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { QUEUE_CONSUMER, ROUTES } from "../../../functions/routes";
import { emailEventsPattern } from "../../../infra/email-events-rule";
import { INTAKE_FILTER_PATTERNS } from "../../../infra/intake-filter";
import {
  CONSUMER_MAX_BATCHING_WINDOW_SECONDS,
  CONSUMER_MAX_CONCURRENCY,
  INTAKE_MAX_RECEIVE_COUNT,
  INTAKE_VISIBILITY_TIMEOUT_SECONDS,
} from "../../../infra/intake-pipeline";
import { TABLE_WRITES } from "../../../infra/table-grants";
import {
  actionsOf,
  asList,
  DEPLOY_CONTEXT,
  loadApp,
  onlyLogicalId,
  type Resource,
  type Statement,
  type Synthesized,
  synth,
} from "./support";

let template: Template;
let resources: Record<string, Resource>;
let tableId: string;
let app: Synthesized;

beforeAll(() => {
  app = loadApp();
  ({ template, resources } = app);
  tableId = onlyLogicalId(app.template, "AWS::DynamoDB::Table");
});

describe("intake pipeline", () => {
  const queueIds = () => {
    // The intake pipeline's two (the SES events' dead-letter queue is test/standalone/infra/deploy.test.ts's,
    // the bookkeeper's test/standalone/infra/bookkeeping.test.ts's).
    const queues = Object.entries(resources).filter(
      ([id, r]) =>
        r.Type === "AWS::SQS::Queue" &&
        !id.startsWith("IntakeQueueEmailEventsDeadLetter") &&
        !id.startsWith("QueueBookkeeperDeadLetter"),
    );
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

  test("the filter patterns pass inserted non-spam submissions not imported, inserted or modified purge jobs, inserted release markers and submission changes, running retention and import jobs", () => {
    expect(INTAKE_FILTER_PATTERNS).toEqual([
      {
        eventName: ["INSERT"],
        dynamodb: {
          NewImage: {
            type: { S: ["submission"] },
            isSpam: { BOOL: [false] },
            imported: { M: { importId: { S: [{ exists: false }] } } },
          },
        },
      },
      { eventName: ["INSERT", "MODIFY"], dynamodb: { NewImage: { type: { S: ["purge"] } } } },
      { eventName: ["INSERT"], dynamodb: { NewImage: { type: { S: ["release", "submission_change"] } } } },
      {
        eventName: ["INSERT", "MODIFY"],
        dynamodb: { NewImage: { type: { S: ["retention", "import"] }, status: { S: ["running"] } } },
      },
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
    const mappings = Object.values(resources).filter(
      (r) => r.Type === "AWS::Lambda::EventSourceMapping" && r.Properties.FunctionName?.Ref === fnId,
    );
    expect(mappings).toHaveLength(1);
    expect(mappings[0]?.Properties).toMatchObject({
      EventSourceArn: { "Fn::GetAtt": [intakeQueueId(), "Arn"] },
      FunctionName: { Ref: fnId },
      BatchSize: QUEUE_CONSUMER.batchSize,
      MaximumBatchingWindowInSeconds: CONSUMER_MAX_BATCHING_WINDOW_SECONDS,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      // A burst of intake cannot take the account's whole concurrency quota from the API.
      ScalingConfig: { MaximumConcurrency: CONSUMER_MAX_CONCURRENCY },
    });
    expect(CONSUMER_MAX_BATCHING_WINDOW_SECONDS).toBeLessThanOrEqual(5);
    expect(CONSUMER_MAX_CONCURRENCY).toBeGreaterThanOrEqual(2);
    expect(CONSUMER_MAX_CONCURRENCY).toBeLessThanOrEqual(10);
  });

  test("the pipe is created after the consumer and the API's stage (aws-cdk#31211: a new stream is not readable at once)", () => {
    const [pipeId, pipe] = Object.entries(resources).find(([, r]) => r.Type === "AWS::Pipes::Pipe") as [
      string,
      Resource & { DependsOn?: string[] },
    ];
    const parent = app.templates[0]?.template.toJSON() as { Resources: Record<string, { DependsOn?: string[] }> };
    const dependsOn = parent.Resources[pipeId]?.DependsOn ?? [];
    expect(pipe.Type).toBe("AWS::Pipes::Pipe");
    const [fnId] = consumer();
    const stageId = onlyLogicalId(template, "AWS::ApiGatewayV2::Stage");
    const mappingId = Object.entries(resources).find(
      ([, r]) => r.Type === "AWS::Lambda::EventSourceMapping" && r.Properties.FunctionName?.Ref === fnId,
    )?.[0];
    expect(dependsOn).toEqual(expect.arrayContaining([fnId, mappingId, stageId]));
  });

  test("the queue's visibility timeout is at least 6 times the consumer's timeout", () => {
    const [, fn] = consumer();
    const visibility = resources[intakeQueueId()]?.Properties.VisibilityTimeout as number;
    expect(visibility).toBeGreaterThanOrEqual(6 * (fn.Properties.Timeout as number));
  });

  test("reads an import's rows: s3:GetObject under the export bucket's imports/, nothing else of S3", () => {
    const s3 = consumerStatements().filter((st) => actionsOf([st]).some((a) => a.startsWith("s3:")));
    expect(s3).toHaveLength(1);
    expect(actionsOf(s3)).toEqual(["s3:GetObject"]);
    expect(JSON.stringify(s3[0]?.Resource)).toContain("/imports/*");
    expect(consumer()[1].Properties.Environment.Variables.EXPORT_BUCKET).toBeDefined();
  });

  test("writes only its own partitions: each write operation conditioned on the partitions of TABLE_WRITES", () => {
    const writes = consumerStatements().filter((st) =>
      actionsOf([st]).some((a) => /^dynamodb:(Put|Update|Delete|BatchWrite)/.test(a)),
    );
    const granted = new Map<string, Set<string>>();
    for (const st of writes) {
      const leading = st.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"] as string[];
      expect(leading).toBeDefined();
      for (const action of actionsOf([st])) {
        const op = action.replace("dynamodb:", "");
        granted.set(op, new Set([...(granted.get(op) ?? []), ...leading]));
      }
    }
    const declared = TABLE_WRITES[QUEUE_CONSUMER.handler] ?? {};
    expect(Object.fromEntries([...granted].map(([op, set]) => [op, [...set].sort()]).sort())).toEqual(
      Object.fromEntries(
        Object.entries(declared)
          // A partition granted twice by attributes (two kinds of FORM# item it puts) is one leading key.
          .map(([op, targets]) => [
            op,
            [...new Set((targets ?? []).map((t) => `${typeof t === "string" ? t : t.partition}*`))].sort(),
          ])
          .sort(),
      ),
    );
    // It deletes claims, releases, purge and retention jobs, import locks and forward-only markers; it never deletes accounts, keys, sites or webhooks.
    expect([...(granted.get("DeleteItem") ?? [])].sort()).toEqual([
      "ACTION#*",
      "FORWARD#*",
      "IMPORT#*",
      "PURGE#*",
      "RELEASE#*",
      "RETENTION#*",
    ]);
    // Of a form's partition it updates only an endpoint's failing state and its disabling (a 410).
    const formUpdate = writes.find(
      (st) =>
        actionsOf([st]).includes("dynamodb:UpdateItem") &&
        ((st.Condition?.["ForAllValues:StringLike"]?.["dynamodb:LeadingKeys"] ?? []) as string[]).includes("FORM#*"),
    );
    expect(actionsOf(formUpdate ? [formUpdate] : [])).toEqual(["dynamodb:UpdateItem"]);
    expect(
      [...((formUpdate?.Condition?.["ForAllValues:StringEquals"]?.["dynamodb:Attributes"] ?? []) as string[])].sort(),
    ).toEqual(
      [
        "disabledAt",
        "disabledReason",
        "failing",
        "failingSince",
        "gsi1pk",
        "gsi1sk",
        "healthAt",
        "isEnabled",
        "pk",
        "sk",
        "updatedAt",
      ].sort(),
    );
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
  /** Every statement naming an SES action (SendEmail, or `action`), with the role it is attached to. */
  const sesStatements = (res: Record<string, Resource>, action = "ses:SendEmail") =>
    Object.values(res)
      .filter((r) => r.Type === "AWS::IAM::Policy")
      .flatMap((r) =>
        (r.Properties.PolicyDocument.Statement as Statement[])
          .filter((st) => actionsOf([st]).includes(action))
          .map((st) => ({ statement: st, roles: asList(r.Properties.Roles).map((ref: any) => ref.Ref as string) })),
      );

  /** The role of each function that may send: the consumer, and the routes whose entry says `email: "send"`. */
  const sendingRoles = (res: Record<string, Resource>) => {
    const descriptions = [
      "Inlet intake queue consumer",
      "Inlet: members' daily and weekly digests, every hour",
      ...ROUTES.filter((r) => "email" in r && r.email === "send").map((r) => `Inlet ${r.route}`),
    ];
    return descriptions.map((d) => {
      const fn = Object.values(res).find((r) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === d);
      return fn?.Properties.Role["Fn::GetAtt"][0] as string;
    });
  };

  test("email reputation and fates: one configuration set suppresses bounces and complaints, every sender names it, and every fate's events reach the email-events function", () => {
    const sets = Object.entries(resources).filter(([, r]) => r.Type === "AWS::SES::ConfigurationSet");
    expect(sets).toHaveLength(1);
    const [setId, set] = sets[0] as [string, Resource];
    expect(set.Properties.SuppressionOptions).toEqual({ SuppressedReasons: ["BOUNCE", "COMPLAINT"] });
    expect(set.Properties.ReputationOptions).toEqual({ ReputationMetricsEnabled: true });
    const destinations = Object.values(resources).filter((r) => r.Type === "AWS::SES::ConfigurationSetEventDestination");
    expect(destinations).toHaveLength(1);
    const destination = destinations[0]?.Properties.EventDestination;
    expect([...destination.MatchingEventTypes].sort()).toEqual([
      "bounce",
      "complaint",
      "delivery",
      "deliveryDelay",
      "reject",
      "send",
    ]);
    expect(destination.EventBridgeDestination).toBeDefined();
    // Every function that may send has the set's name in its environment.
    for (const role of sendingRoles(resources)) {
      const fn = Object.values(resources).find(
        (r) => r.Type === "AWS::Lambda::Function" && r.Properties.Role["Fn::GetAtt"][0] === role,
      );
      expect(fn?.Properties.Environment.Variables.SES_CONFIGURATION_SET).toEqual({ Ref: setId });
    }
    // The rule takes SES's events of this set to the email-events function: the very pattern the
    // local stack's event bus matches (infra/email-events-rule.ts).
    const rules = Object.values(resources).filter(
      (r) => r.Type === "AWS::Events::Rule" && r.Properties.EventPattern?.source?.[0] === "aws.ses",
    );
    expect(rules).toHaveLength(1);
    expect(rules[0]?.Properties.EventPattern).toEqual(emailEventsPattern({ Ref: setId } as unknown as string));
    const target = rules[0]?.Properties.Targets[0].Arn["Fn::GetAtt"][0] as string;
    expect(resources[target]?.Properties.Description).toBe(
      "Inlet: SES events recorded (each email's fate, suppressed addresses on their forms)",
    );
  });

  test("only the route that lifts a suppressed address may take one off SES's suppression list, and nothing else of SES", () => {
    const lifting = ROUTES.filter((r) => "email" in r && r.email === "unsuppress").map((r) => `Inlet ${r.route}`);
    expect(lifting).toEqual(["Inlet DELETE /api/v1/forms/{formId}/suppressed-recipients/{recipientId}"]);
    const found = sesStatements(resources, "ses:DeleteSuppressedDestination");
    expect(found).toHaveLength(1);
    expect(found[0]?.statement).toEqual(
      expect.objectContaining({ Effect: "Allow", Action: "ses:DeleteSuppressedDestination", Resource: "*" }),
    );
    const role = found[0]?.roles[0];
    const fn = Object.values(resources).find(
      (r) => r.Type === "AWS::Lambda::Function" && r.Properties.Role["Fn::GetAtt"][0] === role,
    );
    expect(fn?.Properties.Description).toBe(lifting[0]);
    // Its role names no other SES action.
    const others = Object.values(resources)
      .filter((r) => r.Type === "AWS::IAM::Policy" && asList(r.Properties.Roles).some((ref: any) => ref.Ref === role))
      .flatMap((r) => actionsOf(r.Properties.PolicyDocument.Statement as Statement[]).filter((a) => a.startsWith("ses:")));
    expect(others).toEqual(["ses:DeleteSuppressedDestination"]);
  });

  test("only the consumer, the digest run and the account-email routes may send, only ses:SendEmail, on the required identity", () => {
    const roles = sendingRoles(resources);
    // The consumer (notifications, reclaim links), the digest run, signup, the verification resend,
    // the confirmation (a change's notice to the old address), the address change, the password
    // reset and the password change (its notice).
    expect(roles).toHaveLength(8);
    const found = sesStatements(resources);
    expect(found.flatMap((f) => f.roles).sort()).toEqual([...roles].sort());
    for (const { statement } of found) {
      expect(statement).toEqual(expect.objectContaining({ Effect: "Allow", Action: "ses:SendEmail" }));
      expect(JSON.stringify(statement.Resource)).toContain(`:identity/${DEPLOY_CONTEXT.sesIdentity}`);
    }
    expect(consumerIn(resources).Properties.Environment.Variables.NOTIFY_FROM).toBe(DEPLOY_CONTEXT.notifyFrom);
  });

  test("the sender and its SES identity are required: synth stops with how to give them", () => {
    for (const missing of [{ notifyFrom: undefined }, { notifyFrom: "  " }]) {
      expect(() => synth(missing)).toThrow(/context value notifyFrom is required.*-c "notifyFrom=.*-c sesIdentity=/);
    }
    expect(() => synth({ sesIdentity: "" })).toThrow(/context value sesIdentity is required/);
    expect(() => synth({ notifyFrom: undefined, sesIdentity: undefined })).toThrow(/notifyFrom and sesIdentity are required/);
  });

  test("notifyFrom and sesIdentity context: the sender reaches the consumer, the grant is scoped to the identity", () => {
    const { stack: custom, template: customTemplate } = synth({
      notifyFrom: "Acme Forms <forms@mail.example.com>",
      sesIdentity: "example.com",
    });
    const res = customTemplate.toJSON().Resources as Record<string, Resource>;
    expect(consumerIn(res).Properties.Environment.Variables.NOTIFY_FROM).toBe("Acme Forms <forms@mail.example.com>");
    const found = sesStatements(res);
    expect(found).toHaveLength(sendingRoles(res).length);
    expect(new Set(found.map((f) => JSON.stringify(f.statement))).size).toBe(1);
    expect(found[0]?.statement.Action).toBe("ses:SendEmail");
    expect(found[0]?.statement.Resource).toEqual([
      // SendEmail through the configuration set (infra/notifications.ts) is authorized on the set too.
      {
        "Fn::Join": [
          "",
          [
            "arn:",
            { Ref: "AWS::Partition" },
            ":ses:",
            { Ref: "AWS::Region" },
            ":",
            { Ref: "AWS::AccountId" },
            ":configuration-set/",
            { Ref: expect.stringMatching(/^EmailConfigurationSet/) },
          ],
        ],
      },
      {
        "Fn::Join": [
          "",
          [
            "arn:",
            { Ref: "AWS::Partition" },
            ":ses:",
            { Ref: "AWS::Region" },
            ":",
            { Ref: "AWS::AccountId" },
            ":identity/example.com",
          ],
        ],
      },
    ]);
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
