import type { Template } from "aws-cdk-lib/assertions";
import { BOOKKEEPER } from "../../../functions/routes";
import { BOOKKEEPER_FILTER_PATTERNS } from "../../../infra/bookkeeper-filter";
import {
  BOOKKEEPER_LAG_THRESHOLD_SECONDS,
  BOOKKEEPER_MAX_BATCHING_WINDOW_SECONDS,
  BOOKKEEPER_MAX_RECORD_AGE_SECONDS,
  BOOKKEEPER_MAX_RETRY_ATTEMPTS,
} from "../../../infra/bookkeeping";
import { MAX_COUNTERS_PER_CHUNK } from "../../../lib/store/bookkeeping";
import { loadApp, onlyLogicalId, type Resource } from "./support";

/**
 * The bookkeeper's function and event source mapping (infra/bookkeeping.ts): exactly-once
 * counting (lib/store/bookkeeping.ts) relies on a batch never being split or shifted on a retry.
 */

let template: Template;
let resources: Record<string, Resource>;
let tableId: string;

beforeAll(() => {
  const app = loadApp();
  ({ template, resources } = app);
  tableId = onlyLogicalId(app.template, "AWS::DynamoDB::Table");
});

const bookkeeper = (): [string, Resource] => {
  const found = Object.entries(resources).filter(
    ([, r]) =>
      r.Type === "AWS::Lambda::Function" && r.Properties.Description === "Inlet bookkeeper: counts from the table stream",
  );
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
};
const deadLetterQueueId = () =>
  Object.entries(resources).find(([id, r]) => r.Type === "AWS::SQS::Queue" && id.startsWith("QueueBookkeeperDeadLetter"))?.[0];

test("runs the BOOKKEEPER entry with the runtime defaults and its own log group", () => {
  const [, fn] = bookkeeper();
  expect(fn.Properties).toMatchObject({
    Runtime: "nodejs22.x",
    Architectures: ["arm64"],
    MemorySize: BOOKKEEPER.memoryMb,
    Timeout: BOOKKEEPER.timeoutSeconds,
    LoggingConfig: { LogFormat: "JSON" },
  });
  expect(fn.Properties.Environment.Variables.TABLE_NAME).toEqual({ Ref: tableId });
});

test("reads the table stream in whole batches: no bisecting, no partial batch responses, bounded retries, a dead-letter queue", () => {
  const [fnId] = bookkeeper();
  const mappings = Object.values(resources).filter(
    (r) => r.Type === "AWS::Lambda::EventSourceMapping" && r.Properties.FunctionName?.Ref === fnId,
  );
  expect(mappings).toHaveLength(1);
  const mapping = (mappings[0] as Resource).Properties;
  expect(mapping).toMatchObject({
    EventSourceArn: { "Fn::GetAtt": [tableId, "StreamArn"] },
    StartingPosition: "TRIM_HORIZON",
    BatchSize: BOOKKEEPER.batchSize,
    MaximumBatchingWindowInSeconds: BOOKKEEPER_MAX_BATCHING_WINDOW_SECONDS,
    BisectBatchOnFunctionError: false,
    ParallelizationFactor: 1,
    MaximumRetryAttempts: BOOKKEEPER_MAX_RETRY_ATTEMPTS,
    MaximumRecordAgeInSeconds: BOOKKEEPER_MAX_RECORD_AGE_SECONDS,
    DestinationConfig: { OnFailure: { Destination: { "Fn::GetAtt": [deadLetterQueueId(), "Arn"] } } },
  });
  // A partial batch response would make Lambda retry from a record inside the batch.
  expect(mapping.FunctionResponseTypes ?? []).toEqual([]);
  const filters = mapping.FilterCriteria.Filters as { Pattern: string }[];
  expect(filters.map((f) => JSON.parse(f.Pattern))).toEqual(BOOKKEEPER_FILTER_PATTERNS);
  // Bounded: -1 (the default) would block a shard on a poison batch until its records expire.
  expect(BOOKKEEPER_MAX_RETRY_ATTEMPTS).toBeGreaterThan(0);
  expect(BOOKKEEPER_MAX_RECORD_AGE_SECONDS).toBeLessThan(24 * 3600);
  // A batch's counters fit a few transactions of 100 items (99 counters and the checkpoint).
  expect(MAX_COUNTERS_PER_CHUNK).toBe(99);
});

test("alarms: the dead-letter queue holding a batch, and the stream lag", () => {
  const [fnId] = bookkeeper();
  template.hasResourceProperties("AWS::CloudWatch::Alarm", {
    Namespace: "AWS/SQS",
    MetricName: "ApproximateNumberOfMessagesVisible",
    Dimensions: [{ Name: "QueueName", Value: { "Fn::GetAtt": [deadLetterQueueId(), "QueueName"] } }],
    Threshold: 0,
    ComparisonOperator: "GreaterThanThreshold",
  });
  const lag = Object.values(resources).filter(
    (r) => r.Type === "AWS::CloudWatch::Alarm" && r.Properties.MetricName === "IteratorAge",
  );
  expect(lag).toHaveLength(1);
  expect(lag[0]?.Properties).toMatchObject({
    Namespace: "AWS/Lambda",
    Dimensions: [{ Name: "FunctionName", Value: { Ref: fnId } }],
    Threshold: BOOKKEEPER_LAG_THRESHOLD_SECONDS * 1000,
  });
});

test("its dead-letter queue keeps descriptions 14 days, encrypted, TLS only, retained", () => {
  const id = deadLetterQueueId() as string;
  expect(resources[id]?.Properties).toMatchObject({ MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
  expect(resources[id]?.DeletionPolicy).toBe("RetainExceptOnCreate");
});
