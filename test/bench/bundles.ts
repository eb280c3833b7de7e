import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Metafile } from "esbuild";
import { BOOKKEEPER, DIGESTS, EMAIL_EVENTS, QUEUE_CONSUMER, ROUTES, type RouteDef } from "../../functions/routes";
import { esbuildOptions } from "../../infra/bundling";

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The bar for every function's bundle (docs/performance.md): a smaller bundle loads faster at a cold start. */
export const MAX_BUNDLE_BYTES = 500 * 1024;

/** The AWS SDK clients a function may use, derived from its route entry (what infra/ grants). */
export type SdkClient = "dynamodb" | "sqs" | "s3" | "ses";

export interface FunctionEntry {
  /** The handler module under functions/, without extension. */
  handler: string;
  kind: "http" | "consumer";
  routes: string[];
  clients: SdkClient[];
  memoryMb: number;
}

type Entry = Pick<RouteDef, "handler" | "table" | "queue" | "bucket" | "email" | "memoryMb">;

export function clientsOf(def: Entry): SdkClient[] {
  const clients: SdkClient[] = [];
  if (def.table !== "none") clients.push("dynamodb");
  if (def.queue === "send") clients.push("sqs");
  if (def.bucket === "write") clients.push("s3");
  if (def.email === "send" || def.email === "unsuppress") clients.push("ses");
  return clients;
}

/** One entry per deployed function: every route table handler, and the queue consumer. */
export function functionEntries(): FunctionEntry[] {
  const byHandler = new Map<string, FunctionEntry>();
  for (const route of ROUTES as readonly RouteDef[]) {
    const existing = byHandler.get(route.handler);
    if (existing) {
      existing.routes.push(route.route);
      continue;
    }
    byHandler.set(route.handler, {
      handler: route.handler,
      kind: "http",
      routes: [route.route],
      clients: clientsOf(route),
      memoryMb: route.memoryMb ?? 256,
    });
  }
  byHandler.set(QUEUE_CONSUMER.handler, {
    handler: QUEUE_CONSUMER.handler,
    kind: "consumer",
    routes: [],
    clients: clientsOf(QUEUE_CONSUMER),
    memoryMb: QUEUE_CONSUMER.memoryMb,
  });
  // The SES events' function (EventBridge): like the consumer, no HTTP route; the size bar only.
  byHandler.set(EMAIL_EVENTS.handler, {
    handler: EMAIL_EVENTS.handler,
    kind: "consumer",
    routes: [],
    clients: clientsOf(EMAIL_EVENTS),
    memoryMb: EMAIL_EVENTS.memoryMb,
  });
  // The bookkeeper (Lambda's DynamoDB Streams event source): no HTTP route either.
  byHandler.set(BOOKKEEPER.handler, {
    handler: BOOKKEEPER.handler,
    kind: "consumer",
    routes: [],
    clients: clientsOf(BOOKKEEPER),
    memoryMb: BOOKKEEPER.memoryMb,
  });
  // The digest run (EventBridge Scheduler): no HTTP route either.
  byHandler.set(DIGESTS.handler, {
    handler: DIGESTS.handler,
    kind: "consumer",
    routes: [],
    clients: clientsOf(DIGESTS),
    memoryMb: DIGESTS.memoryMb,
  });
  return [...byHandler.values()];
}

export interface BuiltBundle {
  name: string;
  /** The .mjs file (absolute). */
  file: string;
  bytes: number;
}

/**
 * Builds the given entry points with the shared Lambda options (infra/bundling.ts), all in one
 * esbuild call, into `outdir/<name>.mjs`.
 */
export async function buildBundles(
  entryPoints: Record<string, string>,
  outdir: string,
  write = true,
): Promise<{ bundles: Map<string, BuiltBundle>; metafile: Metafile }> {
  const result = await build({
    ...esbuildOptions(),
    entryPoints,
    outdir,
    metafile: true,
    write,
    absWorkingDir: PROJECT_ROOT,
    logLevel: "error",
  });
  const bundles = new Map<string, BuiltBundle>();
  const metafile = result.metafile as Metafile;
  for (const [out, meta] of Object.entries(metafile.outputs)) {
    if (!out.endsWith(".mjs")) continue;
    const file = resolve(PROJECT_ROOT, out);
    const name = relative(outdir, file).replace(/\.mjs$/, "");
    bundles.set(name, { name, file, bytes: meta.bytes });
  }
  return { bundles, metafile };
}

/** Entry points of every function exactly as `cdk synth` bundles them (functions/<handler>.ts). */
export function functionEntryPoints(entries = functionEntries()): Record<string, string> {
  return Object.fromEntries(entries.map((e) => [e.handler, join(PROJECT_ROOT, "functions", `${e.handler}.ts`)]));
}

const REFERENCE_SOURCES: Record<SdkClient, { imports: string; construct: string; keep?: string }> = {
  dynamodb: {
    imports:
      'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";\nimport { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";\n',
    construct:
      "DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }), { marshallOptions: { removeUndefinedValues: true } });",
  },
  sqs: {
    imports: 'import { SQSClient, SendMessageCommand } from "@aws-sdk/client-sqs";\n',
    construct: "new SQSClient({ region: process.env.AWS_REGION });",
    keep: "export const __keep_sqs = [SendMessageCommand];\n",
  },
  s3: {
    // The export route writes and presigns with aws4fetch and the default credential chain
    // (lib/aws/s3.ts), not the S3 client.
    imports: 'import { defaultProvider } from "@aws-sdk/credential-provider-node";\nimport { AwsClient } from "aws4fetch";\n',
    construct:
      'defaultProvider(); new AwsClient({ accessKeyId: "AKID", secretAccessKey: "secret", service: "s3", region: process.env.AWS_REGION ?? "us-east-1" });',
  },
  ses: {
    // SendEmail goes through aws4fetch and the default credential chain too (lib/aws/ses.ts).
    imports: 'import { defaultProvider } from "@aws-sdk/credential-provider-node";\nimport { AwsClient } from "aws4fetch";\n',
    construct:
      'defaultProvider(); new AwsClient({ accessKeyId: "AKID", secretAccessKey: "secret", service: "ses", region: process.env.AWS_REGION ?? "us-east-1" });',
  },
};

/** The name of the SDK-only reference for a set of clients ("empty" when none). */
export const referenceName = (clients: SdkClient[]) => (clients.length === 0 ? "ref/empty" : `ref/sdk-${clients.join("-")}`);

/** An entry with only a handler and the given SDK clients, constructed by `__construct()`. */
function referenceSource(clients: SdkClient[]): string {
  const parts = clients.map((c) => REFERENCE_SOURCES[c]);
  return (
    parts.map((p) => p.imports).join("") +
    parts.map((p) => p.keep ?? "").join("") +
    'export const handler = async () => ({ statusCode: 200, body: "" });\n' +
    `export function __construct() {\n${parts.map((p) => `  ${p.construct}`).join("\n")}\n}\n`
  );
}

/**
 * The function's bundle plus a `__construct()` export that builds the clients its route entry
 * grants, as the first request would (lib/aws/dynamodb.ts and lib/store/exports.ts build them
 * lazily): what a cold start pays before the handler answers. The added lines reuse the
 * modules the function already bundles, so the bundle is the function's own plus a few bytes.
 */
function probeSource(entry: FunctionEntry): string {
  const path = (p: string) => JSON.stringify(join(PROJECT_ROOT, p));
  const lines = [`export { handler } from ${path(`functions/${entry.handler}.ts`)};`];
  const construct: string[] = [];
  if (entry.clients.includes("dynamodb")) {
    lines.push(`import { db } from ${path("lib/aws/dynamodb.ts")};`);
    construct.push("db();");
  }
  if (entry.clients.includes("sqs")) {
    lines.push('import { SQSClient } from "@aws-sdk/client-sqs";');
    construct.push("new SQSClient({ region: process.env.AWS_REGION });");
  }
  if (entry.clients.includes("ses")) {
    lines.push(`import { ses } from ${path("lib/aws/ses.ts")};`);
    construct.push("ses();");
  }
  if (entry.clients.includes("s3")) {
    lines.push(`import { createS3Client } from ${path("lib/aws/s3.ts")};`);
    construct.push('createS3Client({ region: process.env.AWS_REGION ?? "us-east-1" });');
  }
  return `${lines.join("\n")}\nexport function __construct() {\n${construct.map((c) => `  ${c}`).join("\n")}\n}\n`;
}

/**
 * Writes the probe and reference entry sources under `dir` and returns them as entry points:
 * `probe/<handler>` per function, `ref/empty` and one `ref/sdk-...` per client set in use.
 */
export function probeEntryPoints(dir: string, entries = functionEntries()): Record<string, string> {
  const points: Record<string, string> = {};
  const write = (name: string, source: string) => {
    const file = join(dir, `${name}.ts`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
    points[name] = file;
  };
  for (const entry of entries) write(`probe/${entry.handler}`, probeSource(entry));
  write("ref/empty", referenceSource([]));
  for (const clients of new Set(entries.map((e) => e.clients.join(",")))) {
    const set = clients ? (clients.split(",") as SdkClient[]) : [];
    if (set.length) write(referenceName(set), referenceSource(set));
  }
  return points;
}

/** The largest contributors to one output, grouped by package (or by project folder). */
export function topContributors(metafile: Metafile, outputFile: string, limit = 8): { module: string; bytes: number }[] {
  const output = Object.entries(metafile.outputs).find(([out]) => resolve(PROJECT_ROOT, out) === outputFile)?.[1];
  if (!output) return [];
  const groups = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const group = match?.[1] ?? input.split("/").slice(0, 2).join("/");
    groups.set(group, (groups.get(group) ?? 0) + bytesInOutput);
  }
  return [...groups.entries()]
    .map(([module, bytes]) => ({ module, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, limit);
}

/** Whether an output includes any input under `prefix` (a package or a project folder). */
export function includesInput(metafile: Metafile, outputFile: string, prefix: string): boolean {
  const output = Object.entries(metafile.outputs).find(([out]) => resolve(PROJECT_ROOT, out) === outputFile)?.[1];
  return Object.keys(output?.inputs ?? {}).some((input) => input.includes(prefix));
}
