import { gzipSync } from "node:zlib";
import { PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { sha256Base62 } from "../../lib/ids";
import { submissionItem } from "../../lib/store/submissions";
import type { Account } from "../support/api";
import { api } from "../support/api";
import { eventually } from "../support/eventually";
import { gzipAsync, netlifyCsv } from "../support/imports";

/**
 * `npm run bench -- --only import`: a 50,000-row import through the whole local stack
 * (docs/performance.md, "Importing"): the request, the job's passes on the stream, the
 * bookkeeper's counts; and the two ways a pass can write its rows, side by side on DynamoDB
 * Local (25 conditional puts in flight, or transactions of 25 conditional puts).
 *
 * The job's bar: 30 ms a row, the export's budget (300 s for 10,000 rows) scaled to the file, so
 * 1,500 s for 50,000 rows. A job over it is a failed run: a FAIL line and a non-zero exit
 * (test/bench/run.ts).
 */

/** The import job's budget per row (docs/performance.md, "Importing"; test/local-stack/perf/import-speed.test.ts holds the same rate). */
export const IMPORT_BUDGET_MS_PER_ROW = 30;

export interface ImportBenchResult {
  rows: number;
  fileBytes: number;
  gzippedBytes: number;
  answerMs: number;
  jobMs: number;
  /** The job's budget for this many rows, and whether the job (the request to its last pass) stayed within it. */
  budgetMs: number;
  withinBudget: boolean;
  rowsPerSecond: number;
  countsSettledMs: number;
  itemBytes: number;
  writeUnitsPerRow: number;
  secondImport: { jobMs: number; duplicates: number };
  writeModes: { mode: string; rows: number; ms: number; msPerRow: number }[];
}

const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

async function finished(token: string, formId: string, importId: string) {
  return eventually(
    `import ${importId}`,
    async () => {
      const res = await api("GET", `/api/v1/forms/${formId}/imports/${importId}`, { token, unchecked: true });
      return res.body?.data?.import?.status === "finished" ? res.body.data.import : undefined;
    },
    { timeoutMs: 30 * 60_000, intervalMs: 500 },
  );
}

/** One import of `file`, timed from the request to the job's end. */
async function timedImport(owner: Account, formId: string, file: string) {
  // Compressed before the clock starts: the figure is the service's answer, not the client's gzip.
  const rawBody = await gzipAsync(JSON.stringify({ file, fileName: "bench.csv" }));
  const began = Date.now();
  const res = await api("POST", `/api/v1/forms/${formId}/import`, {
    token: owner.token,
    rawBody,
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    unchecked: true,
  });
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${res.text.slice(0, 300)}`);
  const answerMs = Date.now() - began;
  const job = await finished(owner.token, formId, res.body.data.import.id);
  return { answerMs, jobMs: Date.now() - began, job };
}

/** Writes `rows` fresh submissions to a form, 25 at a time, as conditional puts or as transactions of 25. */
async function writeMode(formId: string, rows: number, mode: "parallel-puts" | "transactions") {
  const items = Array.from({ length: rows }, (_, i) =>
    submissionItem({
      id: `sub_${sha256Base62(`${mode}-${formId}-${i}-${Date.now()}`)}`,
      orgId: "org_bench",
      siteId: "site_bench",
      formId,
      webhookId: "imp_bench",
      referenceId: `B-${i}`,
      data: { name: `Person ${i}`, email: `p${i}@example.com`, message: `Message ${i}` },
      metadata: { source: "import", userAgent: null, referer: null, ip: null, droppedFiles: [], ignoredFields: [] },
      spam: { score: 0, isSpam: false, signals: [] },
      createdAt: daysAgo(1),
    }),
  );
  const began = Date.now();
  for (let at = 0; at < items.length; at += 25) {
    const group = items.slice(at, at + 25);
    if (mode === "parallel-puts") {
      await Promise.all(
        group.map((Item) =>
          db().send(new PutCommand({ TableName: tableName(), Item, ConditionExpression: "attribute_not_exists(pk)" })),
        ),
      );
    } else {
      await db().send(
        new TransactWriteCommand({
          TransactItems: group.map((Item) => ({
            Put: { TableName: tableName(), Item, ConditionExpression: "attribute_not_exists(pk)" },
          })),
        }),
      );
    }
  }
  const ms = Date.now() - began;
  return { mode, rows, ms, msPerRow: ms / rows };
}

export async function measureImport(options: {
  owner: Account;
  siteId: string;
  rows: number;
  log: (line: string) => void;
}): Promise<ImportBenchResult> {
  const { owner, siteId, rows, log } = options;
  const created = await api("POST", `/api/v1/sites/${siteId}/forms`, {
    token: owner.token,
    body: {
      name: "Import bench",
      fields: [
        { key: "name", label: "Name", type: "name" },
        { key: "email", label: "Email", type: "email" },
        { key: "message", label: "Message", type: "textarea" },
      ],
    },
    unchecked: true,
  });
  const formId = created.body.data.form.id as string;
  const file = netlifyCsv(
    Array.from({ length: rows }, (_, i) => ({
      id: `bench-${i}`,
      createdAt: daysAgo(1 + (i % 300)),
      name: `Person ${i}`,
      email: `person${i}@example.com`,
      message: `Hello, this is message number ${i}, with a little text as a contact form has.`,
    })),
  );
  log(`importing ${rows} rows (${(file.length / 1024 / 1024).toFixed(1)} MB of CSV)...`);
  const importStarted = Date.now();
  const first = await timedImport(owner, formId, file);
  if (first.job.imported !== rows) throw new Error(`imported ${first.job.imported} of ${rows}`);
  const budgetMs = rows * IMPORT_BUDGET_MS_PER_ROW;
  const withinBudget = first.jobMs <= budgetMs;
  log(
    withinBudget
      ? `PASS: imported in ${first.jobMs} ms, within the budget of ${budgetMs} ms; waiting for the counts...`
      : `FAIL: imported in ${first.jobMs} ms, over the budget of ${budgetMs} ms (${IMPORT_BUDGET_MS_PER_ROW} ms a row); waiting for the counts...`,
  );
  await eventually(
    "the form's counts",
    async () => {
      const res = await api("GET", `/api/v1/forms/${formId}`, { token: owner.token, unchecked: true });
      return Number(res.body?.data?.form?.submissionCount ?? 0) >= rows;
    },
    { timeoutMs: 60 * 60_000, intervalMs: 1000 },
  );
  const countsSettledMs = Date.now() - importStarted;
  // The stored item's size decides its write units (1 per KB, rounded up).
  const page = await api("GET", `/api/v1/forms/${formId}/submissions?limit=1`, { token: owner.token, unchecked: true });
  const sample = page.body.data.submissions[0];
  const itemBytes = Buffer.byteLength(JSON.stringify({ ...submissionItem(sample), imported: sample.imported }));
  // A put per row, one reservation per 1,000 rows, one job update per pass (about a pass per 10 s).
  const writeUnitsPerRow = Math.ceil(itemBytes / 1024) + 1 / 1000 + 2 / Math.max(1, rows / 10);
  log("the same file again: every row a duplicate...");
  const second = await timedImport(owner, formId, file);
  log("write modes on DynamoDB Local...");
  const writeModes = [
    await writeMode(`form_bench_a${Date.now()}`, 2000, "parallel-puts"),
    await writeMode(`form_bench_b${Date.now()}`, 2000, "transactions"),
  ];
  return {
    rows,
    fileBytes: Buffer.byteLength(file),
    gzippedBytes: gzipSync(file).length,
    answerMs: first.answerMs,
    jobMs: first.jobMs,
    budgetMs,
    withinBudget,
    rowsPerSecond: Math.round((rows / first.jobMs) * 1000),
    countsSettledMs,
    itemBytes,
    writeUnitsPerRow: Math.round(writeUnitsPerRow * 100) / 100,
    secondImport: { jobMs: second.jobMs, duplicates: second.job.duplicates },
    writeModes,
  };
}
