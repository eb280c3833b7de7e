import { PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { newId, nowIso } from "../../lib/ids";
import { keys } from "../../lib/store/keys";
import type { SubmissionChanges } from "../../lib/store/outbound-deliveries";
import type { Actor } from "../../lib/store/shapes";

/**
 * Writes what the triage routes write for a status, owner or tags
 * change, directly: in one transaction, the submission's new `status`, `ownerId`, `tags`,
 * `triagedAt`, and the change entry of its timeline (`SUB#<id>` / `TL#<at>#<chg_id>`,
 * `type: "submission_change"`), whose stream INSERT is the outbox of `submission.updated`. The
 * pipeline picks it up from the table stream exactly as it will from the routes.
 */
export async function writeChange(
  submission: { id: string; formId: string; siteId: string; orgId: string },
  change: {
    actor: Actor;
    changes: SubmissionChanges;
    state: { status?: string; ownerId?: string | null; tags?: string[] };
  },
): Promise<{ id: string; at: string }> {
  const id = newId("change");
  const at = nowIso();
  const sets = ["triagedAt = :at"];
  const removes: string[] = [];
  const values: Record<string, unknown> = { ":at": at };
  const { status, ownerId, tags } = change.state;
  if (status !== undefined) {
    sets.push("#status = :status");
    values[":status"] = status;
  }
  if (ownerId !== undefined) {
    if (ownerId === null) removes.push("ownerId");
    else {
      sets.push("ownerId = :owner");
      values[":owner"] = ownerId;
    }
  }
  if (tags !== undefined) {
    sets.push("tags = :tags");
    values[":tags"] = tags;
  }
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.submission(submission.id),
            UpdateExpression: `SET ${sets.join(", ")}${removes.length > 0 ? ` REMOVE ${removes.join(", ")}` : ""}`,
            ConditionExpression: "attribute_exists(pk)",
            ...(status !== undefined ? { ExpressionAttributeNames: { "#status": "status" } } : {}),
            ExpressionAttributeValues: values,
          },
        },
        {
          Put: {
            TableName: tableName(),
            Item: {
              ...keys.timelineEntry(submission.id, at, id),
              type: "submission_change",
              id,
              submissionId: submission.id,
              formId: submission.formId,
              siteId: submission.siteId,
              orgId: submission.orgId,
              at,
              actor: change.actor,
              changes: change.changes,
            },
            ConditionExpression: "attribute_not_exists(pk)",
          },
        },
      ],
    }),
  );
  return { id, at };
}

/** An organization's tag item (`ORG#<orgId>` / `TAG#<tagId>`), as the tag routes write it. */
export async function putTag(orgId: string, name: string, colour = "blue"): Promise<string> {
  const id = newId("tag");
  const now = nowIso();
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: { ...keys.tag(orgId, id), type: "tag", id, orgId, name, colour, createdAt: now, updatedAt: now },
    }),
  );
  return id;
}
