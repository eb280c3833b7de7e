import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { fromItem, getItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import type { TagColour } from "./shapes";
import { type Named, type TransactItem, transact } from "./transactions";

/**
 * An organization's tags (docs/triage.md, "Tags"; docs/data-model.md, "Tag"): items in the
 * organization's partition, counted on its META item (`tagCount`, the limit under any
 * concurrency), each name claimed by a `TAGNAME#<lowercased name>` item in the same transaction,
 * so two tags never share a name whatever its case.
 */

export interface Tag {
  id: string;
  orgId: string;
  name: string;
  colour: TagColour;
  createdAt: string;
  updatedAt: string;
}

const TAG_COUNTER = "tagCount";

const toTag = (item: Record<string, unknown>) => fromItem<Tag>(item);

/** Every tag of the organization (at most 50: one Query). */
export async function listTags(orgId: string): Promise<Tag[]> {
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: { ":pk": keys.organization(orgId).pk, ":prefix": keys.tagPrefix() },
  });
  return items.map(toTag);
}

export const getTag = (orgId: string, tagId: string) => getItem<Tag>(keys.tag(orgId, tagId));

const claimPut = (tag: Tag): TransactItem => ({
  Put: {
    TableName: tableName(),
    Item: { ...keys.tagName(tag.orgId, tag.name), type: "tag_name", tagId: tag.id },
    ConditionExpression: "attribute_not_exists(pk)",
  },
});

const claimDelete = (tag: Tag): TransactItem => ({
  Delete: {
    TableName: tableName(),
    Key: keys.tagName(tag.orgId, tag.name),
    ConditionExpression: "tagId = :id",
    ExpressionAttributeValues: { ":id": tag.id },
  },
});

const countBy = (orgId: string, by: 1 | -1, max?: number): TransactItem => ({
  Update: {
    TableName: tableName(),
    Key: keys.organization(orgId),
    UpdateExpression: "ADD #count :by",
    ConditionExpression:
      max === undefined ? "attribute_exists(pk)" : "attribute_exists(pk) AND (attribute_not_exists(#count) OR #count < :max)",
    ExpressionAttributeNames: { "#count": TAG_COUNTER },
    ExpressionAttributeValues: { ":by": by, ...(max === undefined ? {} : { ":max": max }) },
  },
});

/** Creates a tag: its item, its name's claim, its count on the organization and its audit entry, in one transaction. */
export async function insertTag(
  tag: Tag,
  max: number,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "LIMIT_REACHED" | "NAME_TAKEN">> {
  const cancelled = await transact([
    ["count", countBy(tag.orgId, 1, max)],
    [
      "tag",
      {
        Put: {
          TableName: tableName(),
          Item: { ...keys.tag(tag.orgId, tag.id), type: "tag", ...tag },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ],
    ["name", claimPut(tag)],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("count")) return "LIMIT_REACHED";
  if (cancelled.refused("name")) return "NAME_TAKEN";
  throw cancelled.error;
}

/**
 * Renames or recolours a tag the caller read (`current`), if it is unchanged since (its
 * `updatedAt`). A new name (other than by case) moves the claim in the same transaction.
 */
export async function updateTag(
  current: Tag,
  next: Tag,
  audit: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_FOUND" | "CONFLICT" | "NAME_TAKEN">> {
  const items: Named<"tag" | "name" | "oldName" | "audit">[] = [
    [
      "tag",
      {
        Update: {
          TableName: tableName(),
          Key: keys.tag(current.orgId, current.id),
          UpdateExpression: "SET #name = :name, colour = :colour, updatedAt = :updatedAt",
          ConditionExpression: "attribute_exists(pk) AND updatedAt = :seen",
          ExpressionAttributeNames: { "#name": "name" },
          ExpressionAttributeValues: {
            ":name": next.name,
            ":colour": next.colour,
            ":updatedAt": next.updatedAt,
            ":seen": current.updatedAt,
          },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
  ];
  if (current.name.toLowerCase() !== next.name.toLowerCase()) {
    items.push(["oldName", claimDelete(current)], ["name", claimPut(next)]);
  }
  items.push(...auditNamed(audit));
  const cancelled = await transact(items);
  if (!cancelled) return "OK";
  if (cancelled.refused("tag")) return cancelled.found("tag") ? "CONFLICT" : "NOT_FOUND";
  if (cancelled.refused("name")) return "NAME_TAKEN";
  if (cancelled.refused("oldName")) return "CONFLICT";
  throw cancelled.error;
}

/**
 * Deletes a tag, its name's claim and its count, with its audit entry. Submissions keep its id
 * (docs/triage.md, "Tags": no write grows with the organization's submissions).
 */
export async function deleteTag(tag: Tag, audit: AuditEntryInput): Promise<Outcome<"OK" | "NOT_FOUND">> {
  const cancelled = await transact([
    [
      "tag",
      {
        Delete: {
          TableName: tableName(),
          Key: keys.tag(tag.orgId, tag.id),
          ConditionExpression: "attribute_exists(pk)",
        },
      },
    ],
    ["name", claimDelete(tag)],
    ["count", countBy(tag.orgId, -1)],
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("tag") || cancelled.refused("name")) return "NOT_FOUND";
  throw cancelled.error;
}
