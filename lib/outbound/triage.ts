import type { DeliveryChange } from "../store/outbound-deliveries";
import { readNames } from "../store/submission-changes";
import type { StoredSubmission } from "../store/submissions";
import type { TriageView } from "./payload";

/**
 * A submission's triage state as a `submission.updated` event shows it, and the one-line summary
 * of a change a chat message shows (docs/outbound-webhooks.md, docs/notifications.md). The
 * submission item holds `status` (absent: new), `ownerId` and `tags` (tag ids); names come
 * from the tag and member items, read when the attempt is made (a renamed tag shows its new
 * name; a deleted one, whose id a submission keeps, is dropped as every view drops it).
 */

export interface ChangeContext {
  triage: TriageView;
  /** Names of the tags the change added or removed that still exist. */
  tagNames: Map<string, string>;
  /** Names of the members the owner change names, when still members. */
  memberNames: Map<string, string>;
}

/**
 * The submission's status, owner and tags with the tags' names, and the names the change's
 * summary needs: one BatchGetItem (none when nothing needs a name).
 */
export async function changeContext(submission: StoredSubmission, change: DeliveryChange): Promise<ChangeContext> {
  const tagIds = submission.tags ?? [];
  const owner = change.changes.ownerId;
  const names = await readNames(
    submission.orgId,
    [...tagIds, ...(change.changes.tags?.added ?? []), ...(change.changes.tags?.removed ?? [])],
    [owner?.from, owner?.to].filter((id): id is string => typeof id === "string"),
  );
  return {
    triage: {
      status: submission.status ?? "new",
      ownerId: submission.ownerId ?? null,
      tags: tagIds.flatMap((id) => {
        const name = names.tags.get(id);
        return name === undefined ? [] : [{ id, name }];
      }),
    },
    tagNames: names.tags,
    memberNames: names.members,
  };
}

/**
 * What changed, in words, raw (each platform escapes it): "new → contacted · owner: Ana · tags
 * +vip −cold — by Ben" (or "— by API key CRM sync"). A member no longer found is "a former member"; a tag no longer found is
 * left out.
 */
export function changeSummary(change: DeliveryChange, context: Pick<ChangeContext, "tagNames" | "memberNames">): string {
  const parts: string[] = [];
  const { status, ownerId, tags } = change.changes;
  if (status) parts.push(`${status.from} → ${status.to}`);
  if (ownerId) {
    const to = ownerId.to === null ? "nobody" : (context.memberNames.get(ownerId.to) ?? "a former member");
    parts.push(`owner: ${to}`);
  }
  if (tags) {
    const named = (ids: string[], sign: string) =>
      ids.flatMap((id) => {
        const name = context.tagNames.get(id);
        return name === undefined ? [] : [`${sign}${name}`];
      });
    const words = [...named(tags.added, "+"), ...named(tags.removed, "−")];
    if (words.length > 0) parts.push(`tags ${words.join(" ")}`);
  }
  const what = parts.length > 0 ? parts.join(" · ") : "updated";
  return `${what} — by ${actorWords(change.actor)}`;
}

/**
 * Who made a change: a member by name; an API key as "API key <its name>", or "an API key" when
 * the entry has no name of its own (entries written before keys were named there say "API key").
 */
function actorWords(actor: DeliveryChange["actor"]): string {
  if (actor.type === "member") return actor.name || "a member";
  return actor.name && actor.name !== "API key" ? `API key ${actor.name}` : "an API key";
}
