import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { facetsOf, type ViewEntryChange, writeViewEntries } from "./view-entries";

/**
 * The one-off backfill of filter entries (docs/data-model.md, "Filter entry"; docs/operations.md,
 * "Upgrading to the triage filters"). The bookkeeper writes a submission's entries from the
 * table stream when it is stored and moves them on every change of status, owner or tags
 * (lib/bookkeeping/filter-submissions.ts); submissions stored before that step existed have none,
 * so the filters (`status=new` included) would not list them. This puts every entry each
 * stored submission computes to. It is a Scan of the whole table on purpose: it runs once per
 * deployment, by an operator (infra/maintenance/backfill-filter-entries.ts), never on a request.
 *
 * Puts are idempotent, so running it again (or after an interruption) is safe. A submission
 * changed while the scan passes it may get an entry its newer state no longer has: the filtered
 * list re-checks every submission it reads against the filter (view-entries.ts, matchesFacet),
 * so such an entry is never shown; it goes when the submission is removed.
 */

/** Parallel Scan segments (each reads and writes on its own). */
const SEGMENTS = 4;

export interface BackfillProgress {
  scanned: number;
  submissions: number;
  entries: number;
}

export interface BackfillOptions {
  /** Only this form's submissions (the whole table is still read): lets a test leave other forms alone. */
  formId?: string;
  onPage?: (progress: BackfillProgress) => void;
}

export async function backfillFilterEntries({ formId, onPage }: BackfillOptions = {}): Promise<BackfillProgress> {
  const progress: BackfillProgress = { scanned: 0, submissions: 0, entries: 0 };
  const nowS = Math.floor(Date.now() / 1000);
  const segment = async (n: number) => {
    let startKey: Record<string, unknown> | undefined;
    do {
      const out = await db().send(
        new ScanCommand({
          TableName: tableName(),
          Segment: n,
          TotalSegments: SEGMENTS,
          FilterExpression: formId ? "#type = :submission AND formId = :formId" : "#type = :submission",
          ProjectionExpression: "#type, #id, formId, createdAt, isSpam, #ttl, #status, ownerId, tags",
          ExpressionAttributeNames: { "#type": "type", "#id": "id", "#ttl": "ttl", "#status": "status" },
          ExpressionAttributeValues: { ":submission": "submission", ...(formId ? { ":formId": formId } : {}) },
          ...(startKey ? { ExclusiveStartKey: startKey } : {}),
        }),
      );
      const changes: ViewEntryChange[] = (out.Items ?? []).flatMap((item) =>
        facetsOf(item, nowS).map((facet) => ({
          formId: String(item.formId),
          facet,
          createdAt: String(item.createdAt),
          submissionId: String(item.id),
          put: typeof item.ttl === "number" ? { ttl: item.ttl } : {},
        })),
      );
      await writeViewEntries(changes);
      progress.scanned += out.ScannedCount ?? 0;
      progress.submissions += out.Items?.length ?? 0;
      progress.entries += changes.length;
      onPage?.({ ...progress });
      startKey = out.LastEvaluatedKey;
    } while (startKey);
  };
  await Promise.all(Array.from({ length: SEGMENTS }, (_, n) => segment(n)));
  return progress;
}
