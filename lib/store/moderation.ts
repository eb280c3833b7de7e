import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { conditionFailedItem, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import { releaseItem } from "./releases";
import { type StoredSubmission, toSubmission } from "./submissions";
import { transact } from "./transactions";

/**
 * Sets a submission's spam state. Unflagging a submission the intake pipeline has not taken up
 * (no `lead` yet: intake stored it as spam, or it was flagged before the consumer reached it)
 * releases it: in one transaction the flag is cleared and the release marker is put, whose
 * INSERT on the table stream sends the submission into the pipeline (infra/intake-filter.ts).
 * If the marker is already there (a release still on its way) the put is a MODIFY, which the
 * filter drops; the consumer's per-action claims keep every side effect to once anyway. A
 * submission intake stored as spam also gets `releasedAt`, set on its first release and kept.
 * Unflagging a submission the pipeline already took up only clears the flag. Each write changes
 * the flag only from the other state, so of two moderations racing to the same state one reports
 * `changed` (the daily counts move once). Undefined when the submission is gone.
 */
export async function setSpamState(
  submission: StoredSubmission,
  isSpam: boolean,
  now: string,
): Promise<{ submission: StoredSubmission; changed: boolean } | undefined> {
  const TableName = tableName();
  const Key = keys.submission(submission.id);
  const release = !isSpam && submission.lead === undefined;
  if (release) {
    const cancelled = await transact([
      [
        "submission",
        {
          Update: {
            TableName,
            Key,
            UpdateExpression: submission.spam.isSpam
              ? "SET isSpam = :false, releasedAt = if_not_exists(releasedAt, :now)"
              : "SET isSpam = :false",
            ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(#lead) AND isSpam = :true",
            ExpressionAttributeNames: { "#lead": "lead" },
            ExpressionAttributeValues: {
              ":false": false,
              ":true": true,
              ...(submission.spam.isSpam ? { ":now": now } : {}),
            },
          },
        },
      ],
      ["release", { Put: { TableName, Item: releaseItem(submission.id, now) } }],
    ]);
    if (!cancelled) {
      const out = await db().send(new GetCommand({ TableName, Key, ConsistentRead: true }));
      return out.Item ? { submission: toSubmission(out.Item), changed: true } : undefined;
    }
    // Taken up by the pipeline meanwhile, unflagged already, or deleted: the plain write below tells which.
    if (!cancelled.refused("submission")) throw cancelled.error;
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName,
        Key,
        UpdateExpression: "SET isSpam = :isSpam",
        ConditionExpression: "attribute_exists(pk) AND isSpam <> :isSpam",
        ExpressionAttributeValues: { ":isSpam": isSpam },
        ReturnValues: "ALL_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return out.Attributes ? { submission: toSubmission(out.Attributes), changed: true } : undefined;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Already in that state (another moderation got there first), or gone.
    const current = conditionFailedItem(error);
    return current ? { submission: toSubmission(current), changed: false } : undefined;
  }
}
