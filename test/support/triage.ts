import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { keys } from "../../lib/store/keys";
import type { SubmissionStatus } from "../../lib/store/shapes";

/**
 * Writes a submission's triage attributes (docs/triage.md) as one UpdateItem, the way the triage
 * routes change them: the bookkeeper then follows the change from the table stream, exactly as it
 * will from those routes. `null` removes an attribute (status back to new, owner to nobody).
 */
export async function setTriage(
  submissionId: string,
  change: {
    status?: SubmissionStatus | null;
    ownerId?: string | null;
    tags?: string[] | null;
    isSpam?: boolean;
    ttl?: number | null;
  },
): Promise<void> {
  const sets: string[] = [];
  const removes: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(change)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (value === null || (Array.isArray(value) && value.length === 0)) removes.push(`#${field}`);
    else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.submission(submissionId),
      UpdateExpression: [sets.length ? `SET ${sets.join(", ")}` : "", removes.length ? `REMOVE ${removes.join(", ")}` : ""].join(
        " ",
      ),
      ConditionExpression: "attribute_exists(pk)",
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
    }),
  );
}

/** Every item of a submission's partition (the submission, its notes, its timeline), straight from the table. */
export async function submissionPartitionItems(submissionId: string): Promise<Record<string, any>[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionPartition(submissionId) },
      ConsistentRead: true,
    }),
  );
  return out.Items ?? [];
}
