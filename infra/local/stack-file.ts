import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

export interface LocalStackInfo {
  url: string;
  baseUrl: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  /** The SES emulator: its web page lists the emails sent, `/store` answers them as JSON. */
  sesEndpoint: string;
  /**
   * EventBridge's bus, standing in for SES's events (infra/local/event-bus.ts): PutEvents here
   * reaches the email events function as SES's events do in AWS.
   */
  eventBusEndpoint: string;
  /** The SES configuration set every email names; SES's events carry it as the `ses:configuration-set` tag. */
  sesConfigurationSet: string;
  queueUrl: string;
  dlqUrl: string;
  /** The exports bucket (imports' rows too), on the SQS emulator's endpoint, which serves S3 as well. */
  exportBucket: string;
  tableName: string;
  region: string;
  dataDir: string;
  pid: number;
}

/** Where a running stack describes itself, so `npm run seed` and tests can find it. */
export const stackFile = (dataDir: string) => resolve(dataDir, "local-stack.json");

/**
 * The running local stack's description, or undefined when none runs (`npm start` writes it), for
 * the scripts that work on it (`npm run seed`, `npm run backfill:filters`).
 */
export function runningLocalStack(dataDir: string): LocalStackInfo | undefined {
  const file = stackFile(dataDir);
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as LocalStackInfo) : undefined;
}

/** What the store's client needs to reach the local stack's table (credentials as given, or the stack's own). */
export const localTableEnv = (info: LocalStackInfo, credentials: { accessKeyId: string; secretAccessKey: string }) => ({
  TABLE_NAME: info.tableName,
  DYNAMODB_ENDPOINT: info.dynamodbEndpoint,
  AWS_REGION: info.region,
  AWS_ACCESS_KEY_ID: process.env.AWS_ACCESS_KEY_ID ?? credentials.accessKeyId,
  AWS_SECRET_ACCESS_KEY: process.env.AWS_SECRET_ACCESS_KEY ?? credentials.secretAccessKey,
});
