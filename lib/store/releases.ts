import { tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import { transact } from "./transactions";

/**
 * The release marker (docs/data-model.md, "Spam state and release"): put by moderation
 * (./moderation.ts) with the unflag that releases a submission, withdrawn by the consumer.
 */

/** Release markers outlive any message that can still carry them (queue 4 days, DLQ 14). */
export const RELEASE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * The item whose INSERT sends an unflagged submission into the intake pipeline. The table
 * stream carries new images only, so a filter on the submission's own MODIFY would also pass
 * every later write to it (its lead, a re-flag); a separate item's INSERT happens once per
 * release.
 */
export const releaseItem = (submissionId: string, releasedAt: string) => ({
  ...keys.release(submissionId),
  type: "release",
  submissionId,
  releasedAt,
  ttl: Math.floor(Date.parse(releasedAt) / 1000) + RELEASE_TTL_SECONDS,
});

/**
 * Called by the intake consumer when a release reaches it but the submission was flagged as
 * spam again meanwhile: deletes the marker, only while the submission still is spam and still
 * unprocessed, so the next unflag inserts it again (and so enters the pipeline). A claim
 * (./outcomes.ts): false when the submission was unflagged (or taken up) in between, and the
 * caller reads it again and processes it.
 */
export async function withdrawRelease(submissionId: string): Promise<boolean> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "submission",
      {
        ConditionCheck: {
          TableName,
          Key: keys.submission(submissionId),
          ConditionExpression: "isSpam = :true AND attribute_not_exists(#lead)",
          ExpressionAttributeNames: { "#lead": "lead" },
          ExpressionAttributeValues: { ":true": true },
        },
      },
    ],
    ["release", { Delete: { TableName, Key: keys.release(submissionId) } }],
  ]);
  if (!cancelled) return true;
  if (cancelled.refused("submission")) return false;
  throw cancelled.error;
}
