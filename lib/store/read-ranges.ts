import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";

/**
 * One member's read state of one form (docs/data-model.md, "Read ranges"):
 * `READS#<userId>` / `FORM#<formId>`, `type: "read_ranges"`, `{ranges, version}`: the ranges of
 * the form's inbox sort keys the member has opened (lib/read-ranges.ts). Intake writes nothing
 * here: a new submission is newer than every range, so it is unread for everyone at no cost.
 * Every change is a Put conditioned on the version read, so two tabs marking at once never lose
 * one another's change (the loser reads again: lib/unread.ts).
 */

/** `[low, high)` of the inbox's sort keys (lib/read-ranges.ts holds their arithmetic). */
export type ReadRange = readonly [low: string, high: string];

/** Whether a stored value is a list of ranges as lib/read-ranges.ts makes them (else the member has read nothing). */
export function parseRanges(value: unknown): ReadRange[] {
  if (!Array.isArray(value)) return [];
  const ranges = value.filter(
    (r): r is [string, string] =>
      Array.isArray(r) && r.length === 2 && typeof r[0] === "string" && typeof r[1] === "string" && r[0] < r[1],
  );
  return ranges.every((r, i) => i === 0 || (ranges[i - 1] as ReadRange)[1] <= r[0]) ? ranges : [];
}

export interface ReadState {
  ranges: ReadRange[];
  /** 0 when the member has no item yet. */
  version: number;
}

/** The member's read state of a form (one eventually consistent GetItem; a moment's lag shows a lead as unread). */
export async function getReadState(userId: string, formId: string, consistent = false): Promise<ReadState> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.readRanges(userId, formId), ConsistentRead: consistent }),
  );
  return { ranges: parseRanges(out.Item?.ranges), version: Number(out.Item?.version ?? 0) };
}

/** Writes the ranges if the item is still at `version`; false when another write came first. */
export async function putReadState(
  userId: string,
  formId: string,
  ranges: readonly ReadRange[],
  version: number,
): Promise<boolean> {
  try {
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...keys.readRanges(userId, formId), type: "read_ranges", formId, ranges, version: version + 1 },
        ConditionExpression: version === 0 ? "attribute_not_exists(pk)" : "version = :version",
        ...(version === 0 ? {} : { ExpressionAttributeValues: { ":version": version } }),
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
