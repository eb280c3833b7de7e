import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { isExpired, unexpiredFilter } from "./expiry";
import { keys } from "./keys";
import { releaseItem } from "./releases";
import { dayOf, movedDeltas, siteDayUpdate } from "./site-days";
import { formCountsUpdate } from "./submission-counts";
import { type StoredSubmission, toSubmission } from "./submissions";
import { type Named, transact } from "./transactions";

/**
 * The counts a moderation moves, as items of its transaction: the form's live counts and the
 * day the submission was received (its inbox and spam, and its source's and form's inbox). A
 * removal is the bookkeeper's to count (from the stream's REMOVE, whatever caused it), a
 * moderation is never on the stream's count (it ignores MODIFY): so each change counts once.
 */
function countMoves(submission: StoredSubmission, toSpam: boolean): Named<"counts" | "day">[] {
  const inbox = toSpam ? -1 : 1;
  return [
    ["counts", { Update: formCountsUpdate(submission.formId, { inbox, spam: -inbox }) }],
    ["day", { Update: siteDayUpdate(submission.siteId, dayOf(submission.createdAt), movedDeltas(submission, toSpam)) }],
  ];
}

/**
 * The expiry a moderation writes with the flag: the new state's `ttl`, or its removal (kept
 * forever), on a submission that has not expired already (an expired one is gone: 404).
 */
function expiryUpdate(ttl: number | undefined) {
  const live = unexpiredFilter();
  return {
    set: ttl === undefined ? "" : ", #ttl = :ttl",
    remove: ttl === undefined ? "REMOVE #ttl" : "",
    live: live.expression,
    names: live.names,
    values: { ...live.values, ...(ttl === undefined ? {} : { ":ttl": ttl }) },
  };
}

const withExpiry = (submission: StoredSubmission, ttl: number | undefined): StoredSubmission => {
  const { ttl: _old, ...rest } = submission;
  return ttl === undefined ? rest : { ...rest, ttl };
};

/**
 * Sets a submission's spam state. Unflagging a submission the intake pipeline has not taken up
 * (no `lead` yet: intake stored it as spam, or it was flagged before the consumer reached it)
 * releases it: in one transaction the flag is cleared and the release marker is put, whose
 * INSERT on the table stream sends the submission into the pipeline (infra/intake-filter.ts).
 * If the marker is already there (a release still on its way) the put is a MODIFY, which the
 * filter drops; the consumer's per-action claims keep every side effect to once anyway. A
 * submission intake stored as spam also gets `releasedAt`, set on its first release and kept.
 * Unflagging a submission the pipeline already took up only clears the flag. Each write changes
 * the flag only from the other state, in one transaction with the counts it moves (countMoves),
 * so of two moderations racing to the same state one changes the flag and the counts, the other
 * nothing. Undefined when the submission is gone (or its form's counts are: the form is purged).
 */
export async function setSpamState(
  submission: StoredSubmission,
  isSpam: boolean,
  now: string,
  /** Its expiry in the new state (epoch seconds; undefined: kept), set in the same write (docs/privacy.md, "Retention"). */
  ttl?: number,
): Promise<{ submission: StoredSubmission; changed: boolean } | undefined> {
  const TableName = tableName();
  const expiry = expiryUpdate(ttl);
  const Key = keys.submission(submission.id);
  // An imported submission is never released into the pipeline (lib/import-job.ts).
  const release = !isSpam && submission.lead === undefined && !submission.imported;
  if (release) {
    const cancelled = await transact([
      [
        "submission",
        {
          Update: {
            TableName,
            Key,
            UpdateExpression: `${
              submission.spam.isSpam ? "SET isSpam = :false, releasedAt = if_not_exists(releasedAt, :now)" : "SET isSpam = :false"
            }${expiry.set} ${expiry.remove}`,
            ConditionExpression: `attribute_exists(pk) AND attribute_not_exists(#lead) AND isSpam = :true AND ${expiry.live}`,
            ExpressionAttributeNames: { "#lead": "lead", ...expiry.names },
            ExpressionAttributeValues: {
              ":false": false,
              ":true": true,
              ...(submission.spam.isSpam ? { ":now": now } : {}),
              ...expiry.values,
            },
          },
        },
      ],
      ["release", { Put: { TableName, Item: releaseItem(submission.id, now) } }],
      ...countMoves(submission, false),
    ]);
    if (!cancelled) {
      const out = await db().send(new GetCommand({ TableName, Key, ConsistentRead: true }));
      return out.Item ? { submission: toSubmission(out.Item), changed: true } : undefined;
    }
    if (cancelled.refused("counts")) return undefined;
    // Taken up by the pipeline meanwhile, unflagged already, or deleted: the plain write below tells which.
    if (!cancelled.refused("submission")) throw cancelled.error;
  }
  const cancelled = await transact([
    [
      "submission",
      {
        Update: {
          TableName,
          Key,
          UpdateExpression: `SET isSpam = :isSpam${expiry.set} ${expiry.remove}`,
          ConditionExpression: `attribute_exists(pk) AND isSpam <> :isSpam AND ${expiry.live}`,
          ExpressionAttributeNames: expiry.names,
          ExpressionAttributeValues: { ":isSpam": isSpam, ...expiry.values },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    ...countMoves(submission, isSpam),
  ]);
  // A transaction answers no new image: the submission as read, with the flag it now has.
  if (!cancelled) return { submission: withExpiry({ ...submission, isSpam }, ttl), changed: true };
  if (!cancelled.refused("submission")) {
    if (cancelled.refused("counts")) return undefined;
    throw cancelled.error;
  }
  // Already in that state (another moderation got there first), or gone.
  const current = cancelled.found("submission");
  return current && !isExpired(current.ttl) ? { submission: toSubmission(current), changed: false } : undefined;
}
