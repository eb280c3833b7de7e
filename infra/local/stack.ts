import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { DynamoDBStreamEvent } from "aws-lambda";
import { BOOKKEEPER, DIGESTS, QUEUE_CONSUMER } from "../../functions/routes";
import { db } from "../../lib/aws/dynamodb";
import type { LocalConfig } from "../../lib/config";
import { type ScheduledHandler, startDigestSchedule } from "./digest-schedule";
import {
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_EXPORT_BUCKET,
  LOCAL_REGION,
  LOCAL_TABLE_NAME,
  startDynamoDbLocal,
  startSes,
  startSqs,
} from "./emulators";
import { startEventBus } from "./event-bus";
import { guardTableGrants, localGrant, runAs } from "./grants";
import { type QueuePollerStats, type SqsHandler, startQueuePoller } from "./queue-poller";
import { type LocalStackInfo, stackFile } from "./stack-file";
import { type StreamFollowerStats, startStreamFollower } from "./stream-follower";
import { startTtlSweeper } from "./ttl-sweeper";

/** What the local pipeline did since the stack started (the bench's batching figures, test/bench/batching.ts). */
export interface LocalPipelineStats {
  follower: StreamFollowerStats;
  poller: QueuePollerStats;
  /** Requests the follower and the poller sent to the SQS emulator, by command (SendMessageBatch, ReceiveMessage, ...). */
  sqsRequests: Record<string, number>;
}

/** The SES configuration set's name here (SES_CONFIGURATION_SET unless the environment names one). */
export const LOCAL_CONFIGURATION_SET = "inlet-local";

/**
 * Starts the whole service on this machine: DynamoDB Local, the SQS emulator, the table and
 * queues, the gateway serving the route table (and the dashboard, when given its build), then the intake pipeline (a stream follower
 * standing in for the EventBridge Pipe, a queue poller standing in for Lambda's event source
 * mapping). The service's own configuration (lib/config.ts) is set in this process's
 * environment before any handler loads.
 */
export async function startLocalStack(local: LocalConfig, options: { webDir?: string } = {}) {
  const dataDir = resolve(local.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const [dynamo, sqs, ses] = await Promise.all([
    startDynamoDbLocal(dataDir, local.DYNAMODB_LOCAL_PORT),
    startSqs(local.SQS_LOCAL_PORT),
    startSes(local.SES_LOCAL_PORT),
  ]);
  await ensureTable(dynamo.client, LOCAL_TABLE_NAME);
  // Every request of the pipe's and the event source's stand-ins, counted as SQS bills them.
  const sqsRequests: Record<string, number> = {};
  sqs.client.middlewareStack.add(
    (next, context) => (args) => {
      const command = context.commandName ?? "unknown";
      sqsRequests[command] = (sqsRequests[command] ?? 0) + 1;
      return next(args);
    },
    { step: "initialize", name: "inletCountSqsRequests" },
  );

  process.env.AWS_ACCESS_KEY_ID ??= LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_CREDENTIALS.secretAccessKey;
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.TABLE_NAME = LOCAL_TABLE_NAME;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.SQS_ENDPOINT = sqs.endpoint;
  process.env.QUEUE_URL = sqs.queueUrl;
  // Large exports go to the emulator's S3 bucket, addressed path-style (lib/store/exports.ts).
  process.env.EXPORT_BUCKET = LOCAL_EXPORT_BUCKET;
  process.env.S3_ENDPOINT = sqs.endpoint;
  // Notification emails go to the SES emulator; its web page shows them (README, "Try it locally").
  process.env.SES_ENDPOINT = ses.endpoint;
  // Emails name a configuration set, as in AWS, so the events put on the local bus (which the
  // emulator does not send) match the same rule (infra/local/event-bus.ts).
  process.env.SES_CONFIGURATION_SET ??= LOCAL_CONFIGURATION_SET;
  // Outbound webhooks may target this machine (the local receiver, infra/local/receiver.ts): the
  // SSRF guard's private-address check is off locally unless the environment says otherwise.
  process.env.ALLOW_PRIVATE_WEBHOOK_TARGETS ??= "true";
  // Local only: with PLATFORM_ADMIN_EMAILS unset, the first account becomes platform admin once
  // it verifies its address (the CDK stack never sets this; docs/accounts.md).
  process.env.FIRST_ACCOUNT_ADMIN ??= "true";

  // The gateway imports the route table and handlers, which read the config set above.
  const { startGateway, stopGateway } = await import("./gateway");
  // With the dashboard's build, the gateway serves it at / as CloudFront does (npm start).
  const gateway = await startGateway(local.PORT, undefined, options.webDir ? { webDir: options.webDir } : {});
  const baseUrl = local.BASE_URL ?? (local.PORT === 3000 ? "http://localhost:3000" : gateway.url);
  process.env.BASE_URL = baseUrl;
  // The test stack holds every function to its declared table grant (infra/local/grants.ts);
  // lib's client reads the config, so only now that it is complete.
  guardTableGrants(db(), process.env.INLET_GRANTS);

  // The bookkeeper's handler, run in process by the stream follower as Lambda's event source
  // mapping runs it in AWS (infra/bookkeeping.ts), under its own table grant.
  const bookkeeperUrl = new URL(`../../functions/${BOOKKEEPER.handler}.ts`, import.meta.url);
  const bookkeeper = (await import(bookkeeperUrl.href)) as { handler: (event: DynamoDBStreamEvent) => Promise<unknown> };
  // Table stream → bookkeeper and queue, with the position kept in the data folder: see stream-follower.ts.
  const follower = await startStreamFollower({
    dynamodb: dynamo.client,
    dynamodbEndpoint: dynamo.endpoint,
    region: LOCAL_REGION,
    accessKeyId: LOCAL_CREDENTIALS.accessKeyId,
    tableName: LOCAL_TABLE_NAME,
    sqs: sqs.client,
    queueUrl: sqs.queueUrl,
    positionFile: resolve(dataDir, "stream-position.json"),
    bookkeeper: {
      handler: (event) => runAs(BOOKKEEPER.handler, localGrant(BOOKKEEPER), () => bookkeeper.handler(event)),
      batchSize: BOOKKEEPER.batchSize,
    },
  });
  // Like the gateway's handlers, the consumer reads the config set above (BASE_URL included), so
  // it loads only now: lib/config.ts parses the environment once per process.
  const consumerUrl = new URL(`../../functions/${QUEUE_CONSUMER.handler}.ts`, import.meta.url);
  const consumer = (await import(consumerUrl.href)) as { handler: SqsHandler };
  const poller = await startQueuePoller({
    sqs: sqs.client,
    queueUrl: sqs.queueUrl,
    handler: (event, context) =>
      runAs(QUEUE_CONSUMER.handler, localGrant(QUEUE_CONSUMER), () => consumer.handler(event, context)),
    batchSize: QUEUE_CONSUMER.batchSize,
    batchingWindowMs: local.QUEUE_BATCHING_WINDOW_MS ?? QUEUE_CONSUMER.batchingWindowSeconds * 1000,
    timeoutSeconds: QUEUE_CONSUMER.timeoutSeconds,
    memoryMb: QUEUE_CONSUMER.memoryMb,
    onSettled: (messageIds) => follower.settle(messageIds),
  });

  // SES's events: EventBridge's bus and the rule, to the email events function (PutEvents).
  const events = await startEventBus({ region: LOCAL_REGION, configurationSet: process.env.SES_CONFIGURATION_SET });

  // The digest schedule (EventBridge Scheduler in AWS), on a timer at the top of every hour.
  const digestsUrl = new URL(`../../functions/${DIGESTS.handler}.ts`, import.meta.url);
  const digests = (await import(digestsUrl.href)) as { handler: ScheduledHandler };
  const digestSchedule = startDigestSchedule({
    handler: (event, context) => runAs(DIGESTS.handler, localGrant(DIGESTS), () => digests.handler(event, context)),
    timeoutSeconds: DIGESTS.timeoutSeconds,
    memoryMb: DIGESTS.memoryMb,
  });

  // DynamoDB's TTL deletions, which DynamoDB Local never makes (a retention's expired submissions, ...).
  const sweeper = startTtlSweeper({
    client: DynamoDBDocumentClient.from(dynamo.client),
    tableName: LOCAL_TABLE_NAME,
    intervalSeconds: local.LOCAL_TTL_SWEEP_SECONDS,
  });

  const info: LocalStackInfo = {
    url: gateway.url,
    baseUrl,
    dynamodbEndpoint: dynamo.endpoint,
    sqsEndpoint: sqs.endpoint,
    sesEndpoint: ses.endpoint,
    eventBusEndpoint: events.endpoint,
    sesConfigurationSet: process.env.SES_CONFIGURATION_SET,
    queueUrl: sqs.queueUrl,
    dlqUrl: sqs.dlqUrl,
    exportBucket: LOCAL_EXPORT_BUCKET,
    tableName: LOCAL_TABLE_NAME,
    region: LOCAL_REGION,
    dataDir,
    pid: process.pid,
  };
  // Written then renamed: whoever waits for the file (tests, seed) never reads half of it.
  const file = stackFile(dataDir);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(info, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);

  const stop = async () => {
    await stopGateway(gateway.server);
    // The poller first (its batch in progress finishes and settles), then the follower writes
    // its final position; only then do the emulators go.
    await Promise.all([poller.stop(), digestSchedule.stop(), sweeper.stop()]);
    await follower.stop();
    await events.stop();
    await Promise.allSettled([sqs.stop(), dynamo.stop(), ses.stop()]);
  };
  const pipeline = {
    stats: (): LocalPipelineStats => ({ follower: follower.stats(), poller: poller.stats(), sqsRequests: { ...sqsRequests } }),
  };
  return { info, pipeline, stop };
}
