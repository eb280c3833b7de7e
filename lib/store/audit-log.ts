import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { epochSeconds, newId } from "../ids";
import { filteredPage } from "./filtered-query";
import { keys } from "./keys";
import type { Page } from "./pagination";
import type { Named, TransactItem } from "./transactions";

/**
 * An organization's audit log (docs/privacy.md, "Audit log"): an append-only record of what its
 * people and keys did that changes or exposes data. The store persists the shapes below; which
 * actions exist and how an actor is named from a request is the domain's (lib/audit.ts).
 *
 * An entry is written in the same transaction as the change it records wherever that change is
 * a DynamoDB write: a store function that makes an audited change takes the entry and adds
 * `auditEntryItem(entry)` to its TransactWriteItems (a single write becomes a transaction of
 * two), so an entry is never written for a change that was refused, and a change never lands
 * without its entry. Actions that write nothing in the table (an export, an access request) put
 * their entry on its own with `putAuditEntry`, once the action has succeeded.
 */

/** How long an entry is kept: one year, then DynamoDB's TTL deletes it. */
export const AUDIT_RETENTION_DAYS = 365;

/** Who acted. `ip` is the request's client address (lib/http/client-ip.ts). */
export type AuditActor =
  | { type: "member"; userId: string; name: string; email: string; ip: string }
  | { type: "api_key"; keyId: string; ip: string }
  /** A platform admin acting on another organization (a plan change): named, from their own organization. */
  | { type: "platform_admin"; userId: string; name: string; email: string; orgId: string; ip: string };

/** What was acted on: its kind (`form`, `site`, `api_key`, `member`, `webhook`, `organization`, ...), id and name when it has one. */
export interface AuditTarget {
  type: string;
  id: string;
  name?: string;
}

/** A detail of an entry: a few plain values (how many rows, which address, from and to). */
export type AuditDetails = Record<string, string | number | boolean | null>;

/** An entry as its writer gives it. */
export interface AuditEntryInput {
  /** The organization whose log holds it (the affected one, for a platform admin's change). */
  orgId: string;
  /** `<object>.<verb>`, one of the domain's AUDIT_ACTIONS (lib/audit.ts). */
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  details?: AuditDetails;
  /** When it happened (ISO); defaults to now. */
  at?: string;
}

/** An entry as stored and listed. */
export interface AuditEntry {
  id: string;
  orgId: string;
  action: string;
  actor: AuditActor;
  target: AuditTarget;
  details: AuditDetails;
  at: string;
}

/**
 * The item of an entry: a new id and time, the `ttl` of a year. The actor's id is also a
 * top-level attribute (`actorId`: the user or key id) for the log's actor filter.
 */
export function auditEntryRecord(entry: AuditEntryInput): Record<string, unknown> {
  const at = entry.at ?? new Date().toISOString();
  const id = newId("auditEntry");
  const stored: AuditEntry = {
    id,
    orgId: entry.orgId,
    action: entry.action,
    actor: entry.actor,
    target: entry.target,
    details: entry.details ?? {},
    at,
  };
  return {
    ...keys.auditEntry(entry.orgId, at, id),
    type: "audit_entry",
    ...stored,
    actorId: entry.actor.type === "api_key" ? entry.actor.keyId : entry.actor.userId,
    ttl: epochSeconds(Date.parse(at)) + AUDIT_RETENTION_DAYS * 86_400,
  };
}

/** The entry as one Put of a transaction (the change's own transaction: see the module's comment). */
export function auditEntryItem(entry: AuditEntryInput): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: auditEntryRecord(entry),
      // A new random id: never replaces an entry.
      ConditionExpression: "attribute_not_exists(pk)",
    },
  };
}

/** The entry as a named item of a `transact([...])` call, or nothing when the change is not audited. */
export const auditNamed = (entry: AuditEntryInput | undefined): Named<"audit">[] =>
  entry ? [["audit", auditEntryItem(entry)]] : [];

/**
 * The entries of one write as named items of its `transact([...])`, all at the write's own
 * instant `at` (the changed item's `updatedAt`): one change, one time, rather than one clock
 * read per entry.
 */
export const auditEntriesNamed = (entries: readonly AuditEntryInput[], at: string): Named<"audit">[] =>
  entries.map((entry) => ["audit", auditEntryItem({ ...entry, at })]);

/** Puts an entry on its own: only for an action that writes nothing in the table itself (an export, an access request). */
export async function putAuditEntry(entry: AuditEntryInput): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: auditEntryRecord(entry), ConditionExpression: "attribute_not_exists(pk)" }),
  );
}

/** The entry as listed: the stored shape without the table's attributes. */
const toAuditEntry = (item: Record<string, unknown>): AuditEntry => ({
  id: item.id as string,
  orgId: item.orgId as string,
  action: item.action as string,
  actor: item.actor as AuditActor,
  target: item.target as AuditTarget,
  details: (item.details as AuditDetails | undefined) ?? {},
  at: item.at as string,
});

/** What a page of the log may be narrowed to: `from` inclusive, `before` exclusive (ISO instants, a key condition). */
export interface AuditLogFilter {
  action?: string;
  actorId?: string;
  from?: string;
  before?: string;
}

/**
 * A page of the organization's log, newest first: one Query of `AUDIT#<orgId>` (time as its sort
 * key condition); action and actor are a FilterExpression, read on until the page is full or
 * `maxExamined` entries were read (./filtered-query.ts), so a page may be short and still have
 * a cursor.
 */
export function pageOfAuditEntries(
  orgId: string,
  filter: AuditLogFilter,
  options: { limit: number; cursor?: string; maxExamined: number },
): Promise<Page<AuditEntry>> {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.action !== undefined) {
    conditions.push("#action = :action");
    names["#action"] = "action";
    values[":action"] = filter.action;
  }
  if (filter.actorId !== undefined) {
    conditions.push("actorId = :actorId");
    values[":actorId"] = filter.actorId;
  }
  return filteredPage(
    {
      partition: keys.auditPartition(orgId),
      onTable: true,
      newestFirst: true,
      range: {
        ...(filter.from !== undefined ? { from: filter.from } : {}),
        ...(filter.before !== undefined ? { before: filter.before } : {}),
      },
      ...(conditions.length > 0 ? { filter: { expression: conditions.join(" AND "), names, values } } : {}),
      map: toAuditEntry,
    },
    options,
  );
}
