import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { batchGet } from "./batch";
import { keys } from "./keys";

/**
 * What `submission.updated` events read beside the submission: the names they show, and a
 * submission's newest changes. Key strings come from ./keys.ts only.
 */

/**
 * The names a `submission.updated` event shows beside ids (lib/outbound/triage.ts): the tags'
 * (tag items, `ORG#<orgId>` / `TAG#<tagId>`) and the members' (member items, `ORG#<orgId>` /
 * `USER#<userId>`), read together in one BatchGetItem of at most 100 keys, only their `name`.
 * An id without an item (a deleted tag, a member who left) is absent from its map.
 */
export async function readNames(
  orgId: string,
  tagIds: readonly string[],
  userIds: readonly string[],
): Promise<{ tags: Map<string, string>; members: Map<string, string> }> {
  const tags = [...new Set(tagIds)];
  const members = [...new Set(userIds)];
  const found = { tags: new Map<string, string>(), members: new Map<string, string>() };
  if (tags.length + members.length === 0) return found;
  const items = await batchGet([...tags.map((id) => keys.tag(orgId, id)), ...members.map((id) => keys.member(orgId, id))], {
    projection: "#name",
    names: { "#name": "name" },
  });
  items.forEach((item, i) => {
    if (typeof item?.name !== "string") return;
    if (i < tags.length) found.tags.set(tags[i] as string, item.name);
    else found.members.set(members[i - tags.length] as string, item.name);
  });
  return found;
}

/**
 * The ids of a submission's newest change entries (`type: "submission_change"` in its timeline,
 * `SUB#<id>` / `TL#<at>#<id>`), newest first: one Query reading at most `examine` timeline
 * entries (note events among them are read and left out), so its cost never grows with the
 * timeline. What a submission's deliveries list derives its `submission.updated` delivery ids
 * from (lib/outbound-webhooks/submission-deliveries.ts).
 */
export async function recentChangeIds(submissionId: string, examine: number): Promise<string[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
      FilterExpression: "#type = :change",
      ProjectionExpression: "id",
      ExpressionAttributeNames: { "#type": "type" },
      ExpressionAttributeValues: {
        ":pk": keys.submissionPartition(submissionId),
        ":prefix": keys.timelinePrefix(),
        ":change": "submission_change",
      },
      ScanIndexForward: false,
      Limit: examine,
    }),
  );
  return (out.Items ?? []).flatMap((item) => (typeof item.id === "string" ? [item.id] : []));
}
