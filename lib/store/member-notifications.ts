import { GetCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { decodeCursor, encodeCursor } from "./cursor";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import { GSI1 } from "./table-definition";

/**
 * A member's email notifications (docs/notifications.md, "Digests"), kept on the member item
 * (`ORG#<orgId>` / `USER#<userId>`): the time zone, the choices (per form and for the whole
 * organization), and the schedule of the digests chosen, which also puts the member in the
 * index of due digests (GSI1 `DIGESTS`, sparse). On the member item, so that what the consumer
 * and the digest run need (the address, whether it is verified, the choices) comes with one read,
 * and a member's removal or address change carries them along with no second item to keep in step.
 */

/** What a member chose for a form: an email per submission, a daily or weekly digest, or nothing. */
export const NOTIFICATION_CHOICES = ["instant", "daily", "weekly", "off"] as const;
export type NotificationChoice = (typeof NOTIFICATION_CHOICES)[number];

/** The digests, by how often they go. */
export const DIGEST_CADENCES = ["daily", "weekly"] as const;
export type DigestCadence = (typeof DIGEST_CADENCES)[number];

export interface NotificationSettings {
  /** For every form without a choice of its own; null: as each form's notification list says. */
  organization: NotificationChoice | null;
  /** Choices for single forms, by form id. */
  forms: Record<string, NotificationChoice>;
  /** The local hour (0–23) digests go at. */
  digestHour: number;
  /** The weekday (ISO: 1 Monday … 7 Sunday) weekly digests go on. */
  digestWeekday: number;
  updatedAt: string;
}

/** Where one cadence's digests stand: when the next is due, and the last UTC day one covered. */
export interface DigestState {
  dueAt: string;
  coveredUntil?: string;
}

export type DigestSchedule = Partial<Record<DigestCadence, DigestState>>;

/** What the notifications need of a member. */
export interface NotifiedMember {
  userId: string;
  orgId: string;
  email: string;
  emailVerifiedAt?: string;
  emailLostAt?: string;
  /** IANA time zone; absent until the member saves their notifications. */
  timeZone?: string;
  notifications?: NotificationSettings;
  digests?: DigestSchedule;
  /** The member's place in the due index, as read (a reschedule applies only if it is unchanged). */
  dueSortKey?: string;
}

/** The attributes read, each by a name placeholder (`timeZone` is one of DynamoDB's reserved words). */
const ATTRIBUTES = [
  "userId",
  "orgId",
  "email",
  "emailVerifiedAt",
  "emailLostAt",
  "timeZone",
  "notifications",
  "digests",
  "gsi1sk",
];
const PROJECTION = {
  ProjectionExpression: ATTRIBUTES.map((_, i) => `#a${i}`).join(", "),
  ExpressionAttributeNames: Object.fromEntries(ATTRIBUTES.map((name, i) => [`#a${i}`, name])),
};

function toNotifiedMember(item: Record<string, unknown>): NotifiedMember {
  const { gsi1sk, ...rest } = item;
  return { ...(rest as unknown as NotifiedMember), ...(typeof gsi1sk === "string" ? { dueSortKey: gsi1sk } : {}) };
}

/** The earliest due time of a schedule, or undefined when no digest is chosen. */
const earliestDue = (digests: DigestSchedule) =>
  DIGEST_CADENCES.map((cadence) => digests[cadence]?.dueAt)
    .filter((at): at is string => at !== undefined)
    .sort()[0];

/** The update that sets a schedule and the member's place in the due index (or takes it out). */
function scheduleUpdate(orgId: string, userId: string, digests: DigestSchedule) {
  const due = earliestDue(digests);
  if (due === undefined) return { set: ["digests = :digests"], remove: ["gsi1pk", "gsi1sk"], values: { ":digests": digests } };
  const index = keys.digestDueIndex(due, orgId, userId);
  return {
    set: ["digests = :digests", "gsi1pk = :gsi1pk", "gsi1sk = :gsi1sk"],
    remove: [],
    values: { ":digests": digests, ":gsi1pk": index.gsi1pk, ":gsi1sk": index.gsi1sk },
  };
}

const expression = (set: string[], remove: string[]) =>
  `SET ${set.join(", ")}${remove.length ? ` REMOVE ${remove.join(", ")}` : ""}`;

/** A member's notifications (GetItem, strongly consistent: the page shows what was just saved). */
export async function getNotifiedMember(orgId: string, userId: string): Promise<NotifiedMember | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.member(orgId, userId),
      ConsistentRead: true,
      ...PROJECTION,
    }),
  );
  return out.Item ? toNotifiedMember(out.Item) : undefined;
}

/**
 * The members of an organization who made a choice (Query of the organization's members, their
 * notification attributes projected; those without `notifications` filtered out): what the
 * consumer reads beside each submission's form to know who gets its email.
 */
export async function listNotifiedMembers(orgId: string): Promise<NotifiedMember[]> {
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    FilterExpression: "attribute_exists(notifications)",
    ...PROJECTION,
    ExpressionAttributeValues: { ":pk": keys.organization(orgId).pk, ":prefix": keys.memberPrefix() },
  });
  return items.map(toNotifiedMember);
}

/**
 * Saves a member's time zone, choices and digest schedule (UpdateItem, `attribute_exists(pk)`),
 * with the member's place in the due index; answers the member as saved.
 */
export async function saveNotificationSettings(
  orgId: string,
  userId: string,
  saved: { timeZone: string; notifications: NotificationSettings; digests: DigestSchedule },
): Promise<NotifiedMember | Outcome<"NOT_FOUND">> {
  const schedule = scheduleUpdate(orgId, userId, saved.digests);
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.member(orgId, userId),
        UpdateExpression: expression(["#zone = :zone", "notifications = :notifications", ...schedule.set], schedule.remove),
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#zone": "timeZone" },
        ExpressionAttributeValues: { ":zone": saved.timeZone, ":notifications": saved.notifications, ...schedule.values },
        ReturnValues: "ALL_NEW",
      }),
    );
    return toNotifiedMember(out.Attributes ?? {});
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}

/**
 * Members with a digest due at or before `at` (ISO), soonest first: one page of the due index
 * (Query GSI1 `gsi1pk = DIGESTS AND gsi1sk <= <at>#~`), eventually consistent. `cursor` resumes.
 */
export async function listDueDigests(
  at: string,
  limit: number,
  cursor?: string,
): Promise<{ members: NotifiedMember[]; nextCursor: string | null }> {
  const partition = keys.digestDueIndexPartition();
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk AND gsi1sk <= :upper",
      // `~` sorts after every character of an id: every member due at `at` itself is included.
      ExpressionAttributeValues: { ":pk": partition, ":upper": `${at}#~` },
      Limit: limit,
      ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, { index: true, partition }) } : {}),
    }),
  );
  return {
    members: (out.Items ?? []).map(toNotifiedMember),
    nextCursor: out.LastEvaluatedKey ? encodeCursor(out.LastEvaluatedKey, true) : null,
  };
}

/**
 * Moves a member's digests on after a run (UpdateItem `SET digests` and the index keys), only if
 * the member's place in the due index is still the one read (`gsi1sk = :read`): a member who
 * saved new choices meanwhile keeps the schedule they produced. False when that changed, or
 * the member is gone.
 */
export async function rescheduleDigests(member: NotifiedMember, digests: DigestSchedule): Promise<boolean> {
  const schedule = scheduleUpdate(member.orgId, member.userId, digests);
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.member(member.orgId, member.userId),
        UpdateExpression: expression(schedule.set, schedule.remove),
        ConditionExpression: "gsi1sk = :read",
        ExpressionAttributeValues: { ...schedule.values, ":read": member.dueSortKey ?? "" },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}
