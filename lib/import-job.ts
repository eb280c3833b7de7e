import { IMPORT_LIMITS } from "./imports/limits";
import type { ImportRow } from "./imports/rows";
import { log } from "./log";
import { expiryOf, type Retention, retentionOf } from "./retention";
import { redate } from "./retention-job";
import { SIGNALS, type SpamVerdict, scoreSpam } from "./spam/signals";
import { getFormRetention } from "./store/forms";
import { IMPORT_CHUNK_ROWS, readImportRows } from "./store/import-files";
import { type ImportJob, type ImportProblem, putImportedSubmission, recordImportPass } from "./store/imports";
import type { DatedSubmission } from "./store/retention-jobs";
import { reserveReferenceNumbers } from "./store/sites";
import type { Submission } from "./store/submissions";

/** Conditional puts in flight at once within a pass (as the retention job's re-dating). */
export const IMPORT_PARALLEL_WRITES = 25;
/** A pass ends after this long (it finishes the group of writes in flight): well inside the consumer's 30 s. */
export const IMPORT_PASS_MS = 10_000;

/**
 * What imported rows are scored on: the content signals only. An import has no request, so no
 * honeypot, timing, referer, user agent, rate or captcha (docs/spam.md, "Imported submissions").
 */
const CONTENT_SIGNALS = SIGNALS.filter((s) => s.name === "excessive_urls" || s.name === "spam_phrases");

/** The row's verdict: its content, and the source service's own verdict when its export says spam. */
export function importVerdict(row: ImportRow, source: string): SpamVerdict {
  const verdict = scoreSpam(
    {
      source: "generic",
      data: row.data,
      controls: {},
      referer: undefined,
      userAgent: undefined,
      now: Date.parse(row.createdAt),
      duplicate: false,
      ipRate: { minute: 0, hour: 0 },
    },
    CONTENT_SIGNALS,
  );
  if (!row.sourceSpam) return verdict;
  const signals = [...verdict.signals, { name: "source_spam", score: 100, detail: `marked spam in the ${source} export` }];
  return { score: 100, isSpam: true, signals };
}

function submissionOf(
  job: ImportJob,
  row: ImportRow,
  reference: number,
  verdict: SpamVerdict,
  ttl: number | undefined,
): Submission {
  return {
    id: row.id,
    orgId: job.orgId,
    siteId: job.siteId,
    formId: job.formId,
    // An imported submission came through no webhook: its import stands in (docs/importing.md).
    webhookId: job.id,
    referenceId: `${job.referencePrefix}-${reference}`,
    data: Object.assign(Object.create(null), row.data),
    metadata: { source: "import", userAgent: null, referer: null, ip: null, droppedFiles: [], ignoredFields: [] },
    spam: verdict,
    createdAt: row.createdAt,
    ...(ttl === undefined ? {} : { ttl }),
  };
}

interface PassCounts {
  imported: number;
  duplicates: number;
  spam: number;
  skipped: number;
  problems: ImportProblem[];
}

/** The retention a pass dates its rows by, and its generation (null: the form's retention never changed). */
interface Dating {
  retention: Retention;
  generation: number | null;
}

/**
 * The form's retention now (one strongly consistent read of the form); the job's, from when it
 * started, if the form is gone (its purge then deletes what the pass writes).
 */
async function datingNow(job: ImportJob): Promise<Dating> {
  const now = await getFormRetention(job.formId);
  return now ? { retention: retentionOf(now), generation: now.generation } : { retention: job.retention, generation: null };
}

/** Writes one row, counting what came of it; answers the row as stored when this import holds it (for keepRetention). */
async function writeRow(
  job: ImportJob,
  dating: Dating,
  row: ImportRow,
  reference: number,
  now: number,
  counts: PassCounts,
): Promise<DatedSubmission | undefined> {
  const verdict = importVerdict(row, job.source);
  const ttl = expiryOf(row.createdAt, verdict.isSpam, dating.retention);
  if (ttl !== undefined && ttl * 1000 <= now) {
    counts.skipped++;
    counts.problems.push({
      line: row.line,
      code: "EXPIRED",
      message: "The row is older than the form's retention keeps submissions",
    });
    return;
  }
  const put = await putImportedSubmission(
    submissionOf(job, row, reference, verdict, ttl),
    { importId: job.id, source: job.source, line: row.line },
    dating.generation,
  );
  if (put.outcome === "duplicate") {
    counts.duplicates++;
    return;
  }
  counts.imported++;
  if (verdict.isSpam) counts.spam++;
  return { id: row.id, createdAt: row.createdAt, isSpam: verdict.isSpam, ttl: put.ttl };
}

/**
 * After a pass's writes: if the form's retention changed meanwhile (or before this attempt, for
 * rows an earlier attempt wrote), the rows of the pass get the expiry it gives them. The change's
 * retention job reads the form's submissions oldest first and may have passed their dates before
 * they were written (imported rows keep their original times), so it would miss them. One read of
 * the form when the pass wrote anything; writes only when something changed.
 */
async function keepRetention(job: ImportJob, written: DatedSubmission[]): Promise<number> {
  if (written.length === 0) return 0;
  const now = await datingNow(job);
  if (now.generation === null) return 0;
  return redate(written, { retention: now.retention, generation: now.generation });
}

/**
 * One pass of an import (docs/importing.md, "The job"): the next rows from the job's cursor, chunk
 * after chunk for IMPORT_PASS_MS from `started` (the group of writes in flight then finishes; one
 * group at least, however late the pass starts), each a conditional put of its derived id
 * (IMPORT_PARALLEL_WRITES at a time), numbered from one block of the site's reference numbers
 * reserved per chunk, in the file's order; then the pass is recorded on the job, whose MODIFY
 * queues the next. A pass that dies repeats: rows it stored are found as its own ("ours") and
 * counted once; only the reserved numbers are lost (gaps).
 */
export async function runImportPass(job: ImportJob, started = Date.now()): Promise<"continued" | "finished" | "repeated"> {
  if (job.status !== "running") return "finished";
  const counts: PassCounts = { imported: 0, duplicates: 0, spam: 0, skipped: 0, problems: [] };
  const written: DatedSubmission[] = [];
  const dating = await datingNow(job);
  let cursor = job.cursor;
  // Every pass writes one group at least, however late it starts: each moves the import on.
  const due = () => cursor > job.cursor && Date.now() - started > IMPORT_PASS_MS;
  // Chunk after chunk until the time is up: a pass moves as far as the writes allow.
  while (cursor < job.total && !due()) {
    const chunk = Math.floor(cursor / IMPORT_CHUNK_ROWS);
    const rows = (await readImportRows(job.orgId, job.formId, job.id, chunk)).slice(cursor - chunk * IMPORT_CHUNK_ROWS);
    const { first } = await reserveReferenceNumbers(job.siteId, rows.length);
    for (let at = 0; at < rows.length; at += IMPORT_PARALLEL_WRITES) {
      if (at > 0 && due()) break;
      const group = rows.slice(at, at + IMPORT_PARALLEL_WRITES);
      const now = Date.now();
      const held = await Promise.all(group.map((row, i) => writeRow(job, dating, row, first + at + i, now, counts)));
      for (const row of held) if (row) written.push(row);
      cursor += group.length;
    }
  }
  const redated = await keepRetention(job, written);
  const finishedAt = cursor >= job.total ? new Date().toISOString() : null;
  const problems = [...job.problems, ...counts.problems.sort((a, b) => a.line - b.line)].slice(0, IMPORT_LIMITS.problems);
  const recorded = await recordImportPass(job, { ...counts, problems, cursor, finishedAt });
  if (!recorded) {
    log.info("import pass recorded already", { importId: job.id, pass: job.passes + 1 });
    return "repeated";
  }
  log.info(finishedAt ? "import finished" : "import pass", {
    importId: job.id,
    formId: job.formId,
    pass: job.passes + 1,
    cursor,
    total: job.total,
    redated,
    ms: Date.now() - started,
  });
  return finishedAt ? "finished" : "continued";
}
