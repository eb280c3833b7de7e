import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  ensureTable,
  LOCAL_CREDENTIALS,
  LOCAL_EXPORT_BUCKET,
  LOCAL_REGION,
  LOCAL_TABLE_NAME,
  startDynamoDbLocal,
  startSes,
  startSqs,
} from "../../infra/local/emulators";
import { TEST_ADMIN_EMAIL } from "../support/constants";

/**
 * The local stack's emulators (DynamoDB Local, the SQS/S3 emulator, the SES emulator) and its
 * gateway, all in this process, without the stream follower and the queue poller: the
 * scenarios and the runtime figures invoke handlers here, and nothing else touches the items
 * they write (the local stack's own consumer would race the measured one).
 */
export async function startEmulated() {
  const dataDir = mkdtempSync(join(tmpdir(), "inlet-bench-db-"));
  const [dynamo, sqs, ses] = await Promise.all([startDynamoDbLocal(dataDir, 0), startSqs(0), startSes(0)]);
  await ensureTable(dynamo.client, LOCAL_TABLE_NAME);
  // The same settings infra/local/stack.ts gives the service, before any handler loads.
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_REGION: LOCAL_REGION,
    TABLE_NAME: LOCAL_TABLE_NAME,
    DYNAMODB_ENDPOINT: dynamo.endpoint,
    SQS_ENDPOINT: sqs.endpoint,
    QUEUE_URL: sqs.queueUrl,
    EXPORT_BUCKET: LOCAL_EXPORT_BUCKET,
    S3_ENDPOINT: sqs.endpoint,
    SES_ENDPOINT: ses.endpoint,
    ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
    PLATFORM_ADMIN_EMAILS: TEST_ADMIN_EMAIL,
    // Only signup and login hash passwords; nothing here times them.
    PASSWORD_HASH_COST: "1024",
  });
  const { startGateway } = await import("../../infra/local/gateway");
  const gateway = await startGateway(0);
  const url = gateway.url.replace("localhost", "127.0.0.1");
  process.env.INLET_URL = url;
  process.env.BASE_URL = url;
  // The fixtures read emailed links (an admin's verification, to set a plan) from the emulator.
  process.env.INLET_SES_URL = ses.endpoint;
  return {
    sesEndpoint: ses.endpoint,
    stop: async () => {
      await new Promise<void>((r) => gateway.server.close(() => r()));
      await Promise.allSettled([sqs.stop(), ses.stop(), dynamo.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A document client for another DynamoDB endpoint (setDb() it when the endpoint changes). */
export const documentClient = (endpoint: string) =>
  DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS }), {
    marshallOptions: { removeUndefinedValues: true },
  });
