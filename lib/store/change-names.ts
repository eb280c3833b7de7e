import { batchGet } from "./batch";
import { keys } from "./keys";

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
  const items = await batchGet(
    [...tags.map((id) => keys.tag(orgId, id)), ...members.map((id) => keys.member(orgId, id))],
    { projection: "#name", names: { "#name": "name" } },
  );
  items.forEach((item, i) => {
    if (typeof item?.name !== "string") return;
    if (i < tags.length) found.tags.set(tags[i] as string, item.name);
    else found.members.set(members[i - tags.length] as string, item.name);
  });
  return found;
}
