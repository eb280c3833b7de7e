import { resolve } from "node:path";

export interface LocalStackInfo {
  url: string;
  baseUrl: string;
  dynamodbEndpoint: string;
  sqsEndpoint: string;
  queueUrl: string;
  dlqUrl: string;
  tableName: string;
  region: string;
  dataDir: string;
  pid: number;
}

/** Where a running stack describes itself, so `npm run seed` and tests can find it. */
export const stackFile = (dataDir: string) => resolve(dataDir, "local-stack.json");
