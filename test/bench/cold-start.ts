import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import {
  buildBundles,
  type FunctionEntry,
  functionEntries,
  functionEntryPoints,
  MAX_BUNDLE_BYTES,
  PROJECT_ROOT,
  probeEntryPoints,
  referenceName,
  topContributors,
} from "./bundles";
import { median } from "./stats";

/** The cold-start bar (docs/performance.md): an HTTP function loads in at most this multiple of its SDK-only reference. */
export const MAX_LOAD_RATIO = 1.25;

/**
 * What a child process runs: import the bundle and construct its clients, timed from just
 * before the import to just after `__construct()`, which is the part of Lambda's INIT phase a
 * function's code decides (the runtime's own start-up is the same for every function; the
 * wall-clock time of the whole process is reported besides).
 */
const PROBE = `
const c0 = process.cpuUsage();
const t0 = performance.now();
const m = await import(process.argv[1]);
if (typeof m.__construct === "function") m.__construct();
const t1 = performance.now();
const cpu = process.cpuUsage(c0);
process.stdout.write(JSON.stringify({ loadMs: t1 - t0, cpuMs: (cpu.user + cpu.system) / 1000 }));
`;

/** What a Lambda function's environment has at INIT (no endpoints: nothing is sent). */
const PROBE_ENV = {
  PATH: process.env.PATH ?? "",
  AWS_REGION: "us-east-1",
  AWS_ACCESS_KEY_ID: "bench",
  AWS_SECRET_ACCESS_KEY: "bench",
  TABLE_NAME: "inlet-bench",
  QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/000000000000/inlet-bench",
  EXPORT_BUCKET: "inlet-bench-exports",
  BASE_URL: "https://inlet.example.com",
  NODE_ENV: "production",
};

interface Sample {
  loadMs: number;
  cpuMs: number;
  processMs: number;
}

function probe(file: string): Promise<Sample> {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--input-type=module", "-e", PROBE, pathToFileURL(file).href], {
      env: PROBE_ENV,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const processMs = performance.now() - started;
      if (code !== 0) return reject(new Error(`probe of ${file} exited ${code}: ${err.slice(0, 2000)}`));
      try {
        const { loadMs, cpuMs } = JSON.parse(out) as { loadMs: number; cpuMs: number };
        resolvePromise({ loadMs, cpuMs, processMs });
      } catch {
        reject(new Error(`probe of ${file} printed ${out.slice(0, 500)} ${err.slice(0, 500)}`));
      }
    });
  });
}

export interface ColdStartRow {
  function: string;
  kind: FunctionEntry["kind"];
  clients: string[];
  reference: string;
  bundleBytes: number;
  /** Medians over the runs, ms: import + client construction (wall clock, then CPU), whole process. */
  loadMs: number;
  cpuMs: number;
  processMs: number;
  referenceLoadMs: number;
  referenceCpuMs: number;
  /** Median over the rounds of (load ms / its reference's load ms in the same round): what the bar is on. */
  ratio: number;
  /** cpuMs / referenceCpuMs: the same comparison, insensitive to other load on the machine. */
  cpuRatio: number;
  bundleOk: boolean;
  /** Only HTTP functions carry the load bar (on the wall-clock median: what a caller waits for). */
  loadOk: boolean | null;
  /** The same bar on CPU time: a wall-clock miss that this one does not confirm is noise from other load. */
  cpuLoadOk: boolean | null;
  /** For a function that misses a bar: its largest contributors (esbuild metafile). */
  contributors?: { module: string; bytes: number }[];
}

export interface Timing {
  name: string;
  bundleBytes: number;
  loadMs: number;
  cpuMs: number;
  processMs: number;
}

export interface ColdStartResult {
  runs: number;
  node: string;
  /** os.loadavg() before and after: other work on the machine stretches wall-clock times. */
  loadAverage: { before: number[]; after: number[] };
  references: Timing[];
  /** Where a function's load time goes: SDK-only, + lib/store and its config, + the HTTP chain, the whole function. */
  layers: Timing[];
  functions: ColdStartRow[];
}

/** Layers of one representative function, built like the probes: what each step adds to the load. */
function layerSources(): Record<string, string> {
  const path = (p: string) => JSON.stringify(join(PROJECT_ROOT, p));
  const sdk =
    'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";\nimport { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";\n' +
    "export const handler = async () => ({});\n";
  return {
    "layer/1-sdk-dynamodb": `${sdk}export function __construct() { DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }), { marshallOptions: { removeUndefinedValues: true } }); }\n`,
    "layer/2-validation": `${sdk}import * as z from ${path("lib/validation.ts")};\nexport const schema = z.object({ a: z.string() });\nexport function __construct() { DynamoDBDocumentClient.from(new DynamoDBClient({ region: process.env.AWS_REGION }), { marshallOptions: { removeUndefinedValues: true } }); }\n`,
    // Each layer keeps the ones before it: the validation module stays in 3 and 4 (lib/config.ts
    // no longer imports it, so without it layer 3 would be smaller than layer 2).
    "layer/3-store-client": `import * as z from ${path("lib/validation.ts")};\nexport const schema = z.object({ a: z.string() });\nimport { db } from ${path("lib/aws/dynamodb.ts")};\nexport const handler = async () => ({});\nexport function __construct() { db(); }\n`,
    "layer/4-http-chain": `import * as z from ${path("lib/validation.ts")};\nexport const schema = z.object({ a: z.string() });\nimport { db } from ${path("lib/aws/dynamodb.ts")};\nexport { httpHandler } from ${path("lib/http/handler.ts")};\nexport const handler = async () => ({});\nexport function __construct() { db(); }\n`,
    "layer/5-list-webhooks": `export { handler } from ${path("functions/webhooks/list-webhooks.ts")};\nimport { db } from ${path("lib/aws/dynamodb.ts")};\nexport function __construct() { db(); }\n`,
  };
}

/**
 * Builds every function as `cdk synth` does (sizes), and the timing probes, references and
 * layers, then measures each function `runs` times in fresh node processes, interleaved with its
 * SDK-only reference and the empty handler (ABAB...), so that load on the machine, which drifts,
 * touches a function and its references alike; the layers likewise, as one group.
 */
export async function measureColdStarts(options: {
  runs: number;
  log: (line: string) => void;
  /** Measure only the functions whose handler contains one of these (builds them all). */
  only?: string[];
}): Promise<ColdStartResult> {
  const outdir = join(PROJECT_ROOT, ".bench", "bundles");
  const entriesDir = join(PROJECT_ROOT, ".bench", "entries");
  rmSync(outdir, { recursive: true, force: true });
  rmSync(entriesDir, { recursive: true, force: true });
  const entries = functionEntries();
  options.log(`building ${entries.length} functions as cdk synth does, plus probes, references and layers...`);
  const started = performance.now();
  const probePoints = probeEntryPoints(entriesDir, entries);
  for (const [name, source] of Object.entries(layerSources())) {
    const file = join(entriesDir, `${name}.ts`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, source);
    probePoints[name] = file;
  }
  // One after the other: two esbuild builds at once only compete for the same cores.
  const exact = await buildBundles(functionEntryPoints(entries), join(outdir, "functions"));
  const probes = await buildBundles(probePoints, join(outdir, "probes"));
  options.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const loadBefore = loadavg();
  const file = (name: string) => {
    const bundle = probes.bundles.get(name);
    if (!bundle) throw new Error(`no bundle ${name}`);
    return bundle.file;
  };
  const timing = (name: string, s: Sample[]): Timing => ({
    name,
    bundleBytes: probes.bundles.get(name)?.bytes ?? 0,
    loadMs: median(s.map((x) => x.loadMs)),
    cpuMs: median(s.map((x) => x.cpuMs)),
    processMs: median(s.map((x) => x.processMs)),
  });
  /**
   * ABAB...: `runs` rounds of the group, back to back, its order reversed every other round, so
   * a function and its references are measured within seconds of each other and in both orders.
   */
  const interleaved = async (names: string[], rounds = options.runs) => {
    const samples = new Map<string, Sample[]>(names.map((n) => [n, []]));
    for (let round = 0; round < rounds; round++) {
      for (const name of round % 2 ? [...names].reverse() : names) samples.get(name)?.push(await probe(file(name)));
    }
    return samples;
  };
  const all = new Map<string, Sample[]>();
  const keep = (samples: Map<string, Sample[]>) => {
    for (const [name, s] of samples) all.set(name, [...(all.get(name) ?? []), ...s]);
  };

  const functions: ColdStartRow[] = [];
  const measured = options.only ? entries.filter((e) => options.only?.some((part) => e.handler.includes(part))) : entries;
  for (const [i, entry] of measured.entries()) {
    const bundle = exact.bundles.get(entry.handler);
    if (!bundle) throw new Error(`no bundle for ${entry.handler}`);
    const reference = referenceName(entry.clients);
    const names = [`probe/${entry.handler}`, reference, ...(reference === "ref/empty" ? [] : ["ref/empty"])];
    const samples = await interleaved(names);
    keep(samples);
    const own = timing(names[0] as string, samples.get(names[0] as string) ?? []);
    const ref = timing(reference, samples.get(reference) ?? []);
    // Per round, the function over its reference measured seconds before or after it, then the
    // median over the rounds: the machine's speed drifts during a run (the references' medians
    // ranged 62-105 ms within one run), and a ratio of two medians taken over a drifting series
    // mixes the drift into the ratio; a per-round ratio cancels it.
    const ownSamples = samples.get(names[0] as string) ?? [];
    const refSamples = samples.get(reference) ?? [];
    const paired = (key: "loadMs" | "cpuMs") =>
      median(ownSamples.map((s, round) => s[key] / (refSamples[round]?.[key] ?? Number.NaN)).filter(Number.isFinite));
    const ratio = paired("loadMs");
    const cpuRatio = paired("cpuMs");
    const bundleOk = bundle.bytes <= MAX_BUNDLE_BYTES;
    const loadOk = entry.kind === "http" ? ratio <= MAX_LOAD_RATIO : null;
    const cpuLoadOk = entry.kind === "http" ? cpuRatio <= MAX_LOAD_RATIO : null;
    functions.push({
      function: entry.handler,
      kind: entry.kind,
      clients: entry.clients,
      reference,
      bundleBytes: bundle.bytes,
      loadMs: own.loadMs,
      cpuMs: own.cpuMs,
      processMs: own.processMs,
      referenceLoadMs: ref.loadMs,
      referenceCpuMs: ref.cpuMs,
      ratio,
      cpuRatio,
      bundleOk,
      loadOk,
      cpuLoadOk,
      ...(bundleOk && loadOk !== false && cpuLoadOk !== false
        ? {}
        : { contributors: topContributors(exact.metafile, bundle.file) }),
    });
    options.log(`cold start ${i + 1}/${measured.length} ${entry.handler}: ${ratio.toFixed(2)}x (CPU ${cpuRatio.toFixed(2)}x)`);
  }
  const layerNames = [...probes.bundles.keys()].filter((n) => n.startsWith("layer/")).sort();
  // Differences of a few milliseconds between neighbours: three times the samples.
  keep(await interleaved(layerNames, options.runs * 3));
  const layers = layerNames.map((n) => timing(n, all.get(n) ?? []));
  // Over every sample of the run (each reference was measured next to each of its functions).
  const references = [...probes.bundles.keys()].filter((n) => n.startsWith("ref/")).map((n) => timing(n, all.get(n) ?? []));
  return {
    runs: options.runs,
    node: process.version,
    loadAverage: { before: loadBefore, after: loadavg() },
    references,
    layers,
    functions,
  };
}
