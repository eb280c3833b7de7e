import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import { DELIVERY_RETENTION_SECONDS } from "./outbound-deliveries";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import { GSI1 } from "./table-definition";

/**
 * Every email Inlet sends and what became of it (docs/data-model.md, "Sent email"; docs/email.md):
 * one item per SES message id, written by whoever learns of it first (the sender once SES
 * accepted it, or SES's own events: lib/notifications/email-events.ts), so every write is an
 * upsert that sets the email's description only if it is not there yet. Each recipient's fate is
 * a top-level attribute `to:<address>` (no map has to exist first, as the site days' counts), and
 * an event moves it only forward: events arrive out of order and more than once.
 */

export const EMAIL_FATES = ["sent", "delayed", "delivered", "bounced", "rejected", "complained"] as const;
export type EmailFate = (typeof EMAIL_FATES)[number];

/**
 * How far along a fate is: a recipient's fate changes only to a higher rank. A delay may come
 * before the delivery, a complaint after it; a bounce ends delivery attempts, as a rejection
 * ends the email before them.
 */
const RANK: Record<EmailFate, number> = { sent: 0, delayed: 1, delivered: 2, bounced: 3, rejected: 3, complained: 4 };

/** The recipient's name of an email to a submission's submitter, whose address is not kept. */
export const SUBMITTER = "submitter";
const TO = "to:";

/** Emails are kept as long as the delivery log: 30 days after their last change. */
const ttlFrom = (iso: string) => Math.floor(Date.parse(iso) / 1000) + DELIVERY_RETENTION_SECONDS;

/** What an email is, as its sender tags it (SES hands the tags back with every event). */
export interface SentEmailRef {
  messageId: string;
  /** `notification`, `confirmation`, or an account email's kind (`verify`, `reset`, ...). */
  kind: string;
  submissionId?: string | undefined;
  formId?: string | undefined;
  /** When SES accepted it. */
  sentAt: string;
}

export interface RecipientFate {
  /** The address, or null for a submitter (SUBMITTER), whose address lives with the submission only. */
  address: string | null;
  status: EmailFate;
  /** When it came to be. */
  at: string;
  /** SES's words: the bounce's type and diagnostic, the complaint's feedback type, the delay's type. */
  detail: string | null;
}

export interface SentEmail {
  messageId: string;
  kind: string;
  submissionId: string | null;
  formId: string | null;
  sentAt: string;
  recipients: RecipientFate[];
}

interface StoredFate {
  status: EmailFate;
  rank: number;
  at: string;
  detail?: string;
}

/** The description every write sets when absent (and the index keys of a submission's email). */
function describe(ref: SentEmailRef, now: string) {
  const sets = [
    "#type = if_not_exists(#type, :type)",
    "messageId = if_not_exists(messageId, :messageId)",
    "kind = if_not_exists(kind, :kind)",
    "sentAt = if_not_exists(sentAt, :sentAt)",
    "#ttl = :ttl",
  ];
  const values: Record<string, unknown> = {
    ":type": "sent_email",
    ":messageId": ref.messageId,
    ":kind": ref.kind,
    ":sentAt": ref.sentAt,
    ":ttl": ttlFrom(now > ref.sentAt ? now : ref.sentAt),
  };
  if (ref.formId) {
    sets.push("formId = if_not_exists(formId, :formId)");
    values[":formId"] = ref.formId;
  }
  if (ref.submissionId) {
    const index = keys.sentEmailIndex(ref.submissionId, ref.sentAt, ref.messageId);
    sets.push(
      "submissionId = if_not_exists(submissionId, :submissionId)",
      "gsi1pk = if_not_exists(gsi1pk, :gsi1pk)",
      "gsi1sk = if_not_exists(gsi1sk, :gsi1sk)",
    );
    Object.assign(values, { ":submissionId": ref.submissionId, ":gsi1pk": index.gsi1pk, ":gsi1sk": index.gsi1sk });
  }
  return { sets, names: { "#type": "type", "#ttl": "ttl" } as Record<string, string>, values };
}

/**
 * Records that SES accepted the email for `recipients` (names: addresses, or SUBMITTER): each is
 * `sent` unless an event already said more. One UpdateItem.
 */
export async function recordEmailSent(ref: SentEmailRef, recipients: readonly string[], now: string): Promise<void> {
  const { sets, names, values } = describe(ref, now);
  recipients.forEach((name, i) => {
    names[`#r${i}`] = `${TO}${name}`;
    sets.push(`#r${i} = if_not_exists(#r${i}, :sent)`);
  });
  values[":sent"] = { status: "sent", rank: RANK.sent, at: ref.sentAt } satisfies StoredFate;
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.sentEmail(ref.messageId),
      UpdateExpression: `SET ${sets.join(", ")}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * Records one recipient's fate from an SES event, unless a fate as far along or further is
 * recorded (a replayed or late event changes nothing). "OK" when written, "CONFLICT" when the
 * recorded fate was kept.
 */
export async function recordRecipientFate(
  ref: SentEmailRef,
  recipient: string,
  fate: { status: Exclude<EmailFate, "sent">; at: string; detail?: string | undefined },
  now: string,
): Promise<Outcome<"OK" | "CONFLICT">> {
  const { sets, names, values } = describe(ref, now);
  names["#r"] = `${TO}${recipient}`;
  names["#rank"] = "rank";
  sets.push("#r = :fate");
  const stored: StoredFate = {
    status: fate.status,
    rank: RANK[fate.status],
    at: fate.at,
    ...(fate.detail ? { detail: fate.detail } : {}),
  };
  Object.assign(values, { ":fate": stored, ":rank": stored.rank });
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.sentEmail(ref.messageId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_not_exists(#r) OR #r.#rank < :rank",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "CONFLICT";
    throw error;
  }
}

function toSentEmail(item: Record<string, unknown>): SentEmail {
  const recipients: RecipientFate[] = [];
  for (const [name, value] of Object.entries(item)) {
    if (!name.startsWith(TO)) continue;
    const fate = value as StoredFate;
    const recipient = name.slice(TO.length);
    recipients.push({
      address: recipient === SUBMITTER ? null : recipient,
      status: fate.status,
      at: fate.at,
      detail: fate.detail ?? null,
    });
  }
  recipients.sort((a, b) => (a.address ?? "").localeCompare(b.address ?? ""));
  return {
    messageId: String(item.messageId),
    kind: String(item.kind),
    submissionId: typeof item.submissionId === "string" ? item.submissionId : null,
    formId: typeof item.formId === "string" ? item.formId : null,
    sentAt: String(item.sentAt),
    recipients,
  };
}

/**
 * The emails sent for a submission, oldest first: a handful at most (its notification and its
 * confirmation, and their retries' none: each is sent once), so one Query page.
 */
export async function listSubmissionEmails(submissionId: string): Promise<SentEmail[]> {
  const items = await queryAll({
    IndexName: GSI1,
    KeyConditionExpression: "gsi1pk = :pk",
    ExpressionAttributeValues: { ":pk": keys.sentEmailIndexPartition(submissionId) },
  });
  return items.map(toSentEmail);
}
