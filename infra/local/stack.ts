import { mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import type { LocalConfig } from "../../lib/config";
import {
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  LOCAL_TABLE_NAME,
  startDynamoDbLocal,
  startSqs,
} from "./emulators";
import { type LocalStackInfo, stackFile } from "./stack-file";

/**
 * Starts the whole service on this machine: DynamoDB Local, the SQS emulator, the table and
 * queues, then the gateway serving the route table. The service's own configuration
 * (lib/config.ts) is set in this process's environment before any handler loads.
 */
export async function startLocalStack(local: LocalConfig) {
  const dataDir = resolve(local.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const [dynamo, sqs] = await Promise.all([
    startDynamoDbLocal(dataDir, local.DYNAMODB_LOCAL_PORT),
    startSqs(local.SQS_LOCAL_PORT),
  ]);
  await ensureTable(dynamo.client, LOCAL_TABLE_NAME);

  process.env.AWS_ACCESS_KEY_ID ??= LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_CREDENTIALS.secretAccessKey;
  process.env.AWS_REGION = LOCAL_REGION;
  process.env.TABLE_NAME = LOCAL_TABLE_NAME;
  process.env.DYNAMODB_ENDPOINT = dynamo.endpoint;
  process.env.SQS_ENDPOINT = sqs.endpoint;
  process.env.QUEUE_URL = sqs.queueUrl;

  // The gateway imports the route table and handlers, which read the config set above.
  const { startGateway } = await import("./gateway");
  const gateway = await startGateway(local.PORT);
  const baseUrl = local.BASE_URL ?? (local.PORT === 3000 ? "http://localhost:3000" : gateway.url);
  process.env.BASE_URL = baseUrl;

  const info: LocalStackInfo = {
    url: gateway.url,
    baseUrl,
    dynamodbEndpoint: dynamo.endpoint,
    sqsEndpoint: sqs.endpoint,
    queueUrl: sqs.queueUrl,
    dlqUrl: sqs.dlqUrl,
    tableName: LOCAL_TABLE_NAME,
    region: LOCAL_REGION,
    dataDir,
    pid: process.pid,
  };
  writeFileSync(stackFile(dataDir), `${JSON.stringify(info, null, 2)}\n`);

  const stop = async () => {
    await new Promise<void>((r) => gateway.server.close(() => r()));
    await Promise.allSettled([sqs.stop(), dynamo.stop()]);
  };
  return { info, stop };
}
