import { DIGESTS } from "../../../functions/routes";
import { DIGEST_FUNCTION_RETRIES, DIGEST_SCHEDULE_DELIVERY } from "../../../infra/digests";
import { loadApp, ofType, type Resource, roleStatements } from "./support";

/** The digest schedule (infra/digests.ts): hourly, the scheduled time as the run's clock, retried, alarmed. */
let resources: Record<string, Resource>;
beforeAll(() => {
  ({ resources } = loadApp());
});

const digestFunction = () => {
  const found = ofType(resources, "AWS::Lambda::Function").filter(
    ([, r]) => r.Properties.Description === "Inlet: members' daily and weekly digests, every hour",
  );
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};

test("EventBridge Scheduler invokes the digest function at the top of every hour (UTC), with the scheduled time", () => {
  const [functionId] = digestFunction();
  const schedules = ofType(resources, "AWS::Scheduler::Schedule");
  expect(schedules).toHaveLength(1);
  const [, schedule] = schedules[0] as [string, Resource];
  expect(schedule.Properties).toMatchObject({
    ScheduleExpression: "cron(0 * * * ? *)",
    ScheduleExpressionTimezone: "Etc/UTC",
    State: "ENABLED",
    FlexibleTimeWindow: { Mode: "OFF" },
  });
  const target = schedule.Properties.Target;
  expect(target.Arn).toEqual({ "Fn::GetAtt": [functionId, "Arn"] });
  expect(JSON.parse(target.Input)).toEqual({ time: "<aws.scheduler.scheduled-time>" });
  expect(target.RetryPolicy).toEqual({
    MaximumEventAgeInSeconds: DIGEST_SCHEDULE_DELIVERY.maxEventAge.toSeconds(),
    MaximumRetryAttempts: DIGEST_SCHEDULE_DELIVERY.retryAttempts,
  });
  // The scheduler's role may invoke that function and nothing else.
  const roleId = target.RoleArn["Fn::GetAtt"][0] as string;
  const statements = ofType(resources, "AWS::IAM::Policy")
    .filter(([, p]) => (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
  expect(statements).toEqual([
    expect.objectContaining({
      Action: "lambda:InvokeFunction",
      Resource: expect.arrayContaining([{ "Fn::GetAtt": [functionId, "Arn"] }]),
    }),
  ]);
});

test("the function runs DIGESTS' entry: its timeout, memory, one retry of a failed run, and SES sending through the configuration set", () => {
  const [functionId, fn] = digestFunction();
  expect(fn.Properties).toMatchObject({ Timeout: DIGESTS.timeoutSeconds, MemorySize: DIGESTS.memoryMb });
  expect(Object.keys(fn.Properties.Environment.Variables)).toEqual(
    expect.arrayContaining(["TABLE_NAME", "SES_CONFIGURATION_SET", "BASE_URL"]),
  );
  const invokeConfig = ofType(resources, "AWS::Lambda::EventInvokeConfig")
    .map(([, r]) => r)
    .find((r) => r.Properties.FunctionName.Ref === functionId);
  expect(invokeConfig?.Properties.MaximumRetryAttempts).toBe(DIGEST_FUNCTION_RETRIES);
  const actions = roleStatements("Inlet: members' daily and weekly digests, every hour").flatMap((s) =>
    Array.isArray(s.Action) ? s.Action : [s.Action],
  );
  expect(actions).toContain("ses:SendEmail");
  expect(actions.filter((a) => a.startsWith("sqs:") || a.startsWith("s3:"))).toEqual([]);
});

test("an alarm fires when a run fails within the hour", () => {
  const [functionId] = digestFunction();
  const alarms = ofType(resources, "AWS::CloudWatch::Alarm").filter(
    ([, a]) => a.Properties.MetricName === "Errors" && JSON.stringify(a.Properties.Dimensions).includes(functionId),
  );
  expect(alarms).toHaveLength(1);
  expect((alarms[0] as [string, Resource])[1].Properties).toMatchObject({
    Namespace: "AWS/Lambda",
    Statistic: "Sum",
    Period: 3600,
    Threshold: 0,
    ComparisonOperator: "GreaterThanThreshold",
    TreatMissingData: "notBreaching",
  });
});
