import { readFileSync } from "node:fs";
import { BatchWriteItemCommand, DynamoDBClient, type WriteRequest } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { APIRequestContext, Page } from "@playwright/test";
import { LOCAL_CREDENTIALS } from "../../../infra/local/emulators";
import { type LocalStackInfo, stackFile } from "../../../infra/local/stack-file";
import { newId } from "../../../lib/ids";
import type { Lead } from "../../../lib/store/shapes";
import { type StoredSubmission, submissionItem } from "../../../lib/store/submissions";
import { type Account, apiAs, expect } from "./fixtures";

/**
 * Helpers of the inbox, spam and export specs: sending submissions as a visitor's browser would
 * (so the spam score stays low), waiting for the pipeline's lead grade, and seeding a form with
 * thousands of submissions straight into DynamoDB Local for the volume spec.
 */

export type Source = { url: string; secret: string };

/** What a person's browser sends with a form post: a browser's user agent and the page it was on. */
export const BROWSER = {
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
  referer: "https://www.example.com/contact",
} as const;

/** Posts one submission as a visitor's browser would; answers the intake's result. */
export async function send(request: APIRequestContext, source: Source, fields: Record<string, string>) {
  const response = await request.post(source.url, { data: fields, headers: { "x-webhook-key": source.secret, ...BROWSER } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { submissionId: string; referenceId: string };
}

export interface ApiSubmission {
  id: string;
  formId: string;
  siteId: string;
  webhookId: string;
  referenceId: string;
  createdAt: string;
  data: Record<string, string | string[]>;
  spam: { isSpam: boolean; score: number };
  lead: Lead | null;
}

export const getSubmission = async (request: APIRequestContext, account: Account, id: string) =>
  (await apiAs<{ submission: ApiSubmission }>(request, account, "GET", `/api/v1/submissions/${id}`)).submission;

/** Waits until the intake pipeline has graded the submission (its `lead` is set), and answers it. */
export async function graded(request: APIRequestContext, account: Account, id: string): Promise<ApiSubmission> {
  await expect.poll(async () => (await getSubmission(request, account, id)).lead?.grade, { timeout: 20_000 }).toBeTruthy();
  return getSubmission(request, account, id);
}

/** A site with one source of the given kind (`generic`, `partner_ads`). */
export async function createSourceOf(request: APIRequestContext, account: Account, source: string, name = "Ads leads") {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: `${name} site` });
  const hook = await apiAs<{ id: string; webhookUrl: string; secretKey: string }>(
    request,
    account,
    "POST",
    `/api/v1/sites/${site.id}/webhooks`,
    { name, source },
  );
  return { siteId: site.id, webhookId: hook.id, url: hook.webhookUrl, secret: hook.secretKey };
}

/** The local stack the specs run against, as it describes itself (its emulators' endpoints). */
export const stack = (): LocalStackInfo => {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  return JSON.parse(readFileSync(stackFile(dir), "utf8")) as LocalStackInfo;
};

/**
 * Writes `count` submissions of `first`'s form straight into DynamoDB Local, 25 per
 * BatchWriteItem, with lib/store's own item builder (`submissionItem`): the items are exactly
 * what intake writes. They arrive `spacingMs` apart (a minute), older than `first`, so `first` stays newest;
 * each is `Seeded lead <n>` with reference `<prefix>-<100000 + n>` (the newest is n = 1).
 * Answers the time it took, in milliseconds.
 */
export async function seedSubmissions(first: ApiSubmission, orgId: string, count: number, spacingMs = 60_000): Promise<number> {
  const started = performance.now();
  const info = stack();
  const client = new DynamoDBClient({ endpoint: info.dynamodbEndpoint, region: info.region, credentials: LOCAL_CREDENTIALS });
  const prefix = first.referenceId.replace(/-\d+$/, "");
  const newest = Date.parse(first.createdAt);
  const requests: WriteRequest[] = [];
  for (let n = 1; n <= count; n++) {
    const submission: StoredSubmission = {
      id: newId("submission"),
      orgId,
      siteId: first.siteId,
      formId: first.formId,
      webhookId: first.webhookId,
      referenceId: `${prefix}-${100_000 + n}`,
      data: { name: `Seeded lead ${n}`, email: `lead${n}@example.com`, message: `Seeded message number ${n}` },
      metadata: {
        source: "generic",
        userAgent: BROWSER["user-agent"],
        referer: BROWSER.referer,
        ip: "198.51.100.7",
        droppedFiles: [],
        ignoredFields: [],
      },
      spam: { score: 0, isSpam: false, signals: [] },
      isSpam: false,
      createdAt: new Date(newest - n * spacingMs).toISOString(),
    };
    requests.push({ PutRequest: { Item: marshall(submissionItem(submission), { removeUndefinedValues: true }) } });
  }
  const chunks: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += 25) chunks.push(requests.slice(i, i + 25));
  const write = async (chunk: WriteRequest[]) => {
    let pending = chunk;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error("BatchWriteItem kept returning unprocessed items");
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [info.tableName]: pending } }));
      pending = out.UnprocessedItems?.[info.tableName] ?? [];
    }
  };
  // A few batches in flight at a time: DynamoDB Local is one process on a small machine.
  const PARALLEL = 4;
  for (let i = 0; i < chunks.length; i += PARALLEL) await Promise.all(chunks.slice(i, i + PARALLEL).map(write));
  client.destroy();
  return performance.now() - started;
}

/** The rows of the inbox or spam table (each has a checkbox), as a person reads them top to bottom. */
export const rows = (page: Page) =>
  page
    .getByRole("table")
    .getByRole("row")
    .filter({ has: page.getByRole("checkbox") });

/** The id of the account's organization (what intake stores on each submission). */
export const organizationOf = async (request: APIRequestContext, account: Account) =>
  (await apiAs<{ organization: { id: string } }>(request, account, "GET", "/api/v1/auth/me")).organization.id;
