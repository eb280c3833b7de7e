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
  tableName: string;
  region: string;
  dataDir: string;
  pid: number;
}

/** Where a running stack describes itself, so `npm run seed` and tests can find it. */
export const stackFile = (dataDir: string) => resolve(dataDir, "local-stack.json");
