import { QUEUE_CONSUMER, type RouteDef } from "../functions/routes";
import { type Key, keys } from "../lib/store/keys";

/**
 * What each function may do to the table, narrowed with IAM's DynamoDB condition keys
 * (docs/deployment.md, "Least privilege"). Every function with table access may read (GetItem,
 * BatchGetItem, Query on the table and its one index, ConditionCheckItem in transactions). Writes
 * are granted per operation, each on the partitions the function writes, named by key prefix:
 * `dynamodb:LeadingKeys` is the partition key of every item a write touches (each item of a
 * BatchWriteItem and of a transaction is authorized on its own), and `ForAllValues:StringLike`
 * requires all of them to match. So the intake function can put submissions but delete only its
 * duplicate markers, signup can delete only the invite and the link it consumes, and a read-only
 * route can write nothing but its bookkeeping.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html
 *
 * DynamoDB Local does not evaluate IAM: infra/local/grants.ts holds every function of the test
 * stack to these same grants, so the suite fails when a function writes where its grant does not
 * reach.
 */

export type WriteOperation = "PutItem" | "UpdateItem" | "DeleteItem" | "BatchWriteItem";

export interface TableGrant {
  access: "none" | "read" | "write";
  /** Partition-key prefixes each write operation may touch. */
  writes: Partial<Record<WriteOperation, readonly string[]>>;
  /** Authenticated functions: the rate-limit counters and an API key's lastUsedAt and creatorRole. */
  bookkeeping: boolean;
}

/** `ORG#…` → `ORG#`; a partition without `#` (the `PLATFORM` item) is its own prefix. */
const prefix = (key: Key) => (key.pk.includes("#") ? key.pk.slice(0, key.pk.indexOf("#") + 1) : key.pk);

/** The partitions, from lib/store/keys.ts (the one module that builds keys), so a renamed prefix follows. */
const P = {
  org: prefix(keys.organization("o")), // ORG#: organization, members, sites
  email: prefix(keys.email("e")),
  session: prefix(keys.session("s")),
  invite: prefix(keys.invite("i")),
  emailLink: prefix(keys.emailToken("t")),
  platform: prefix(keys.firstPlatformAdmin()),
  apiKey: prefix(keys.apiKey("k")),
  siteSequence: prefix(keys.siteSequence("s")),
  siteDay: prefix(keys.siteDay("s", "d")), // SITE#: the site's daily counts, beside its sequence
  webhook: prefix(keys.webhook("w")),
  form: prefix(keys.form("f")), // FORM#: forms, outbound endpoints and their count
  submission: prefix(keys.submission("s")),
  idempotency: prefix(keys.idempotency("w", "h")),
  lead: prefix(keys.lead("w", "l")),
  duplicate: prefix(keys.duplicate("h")),
  delivery: prefix(keys.outboundDelivery("d")),
  action: prefix(keys.action("s", "a")),
  release: prefix(keys.release("s")),
  purge: prefix(keys.purgeJob("f")),
  counter: prefix(keys.counter("s", "x", 0)),
};

type Writes = TableGrant["writes"];

/**
 * The writes of each function that writes, by handler. Found by reading each handler's store
 * calls, and checked by the test stack (infra/local/grants.ts) on every path the suite takes;
 * the rare paths no test reaches are marked.
 */
// biome-ignore format: one function per line reads as a table
export const TABLE_WRITES: Record<string, Writes> = {
  // Signup: the account's items, the verification link, the invite or reclaim link it consumes;
  // the local first-account rule's claim (FIRST_ACCOUNT_ADMIN, never set in AWS).
  "auth/signup": { PutItem: [P.email, P.org, P.session, P.emailLink, P.platform], DeleteItem: [P.invite, P.emailLink], UpdateItem: [P.org] },
  "auth/login": { PutItem: [P.session], UpdateItem: [P.counter] },
  "auth/logout": { DeleteItem: [P.session] },
  // A verification marks the member and the claim; a change also puts the new claim, releases the
  // old one, and marks the account it takes an unverified address from.
  "auth/verify-email": { DeleteItem: [P.emailLink, P.email], UpdateItem: [P.org, P.email], PutItem: [P.email] },
  // Its hourly counter is among the bookkeeping every authenticated function may update.
  "auth/resend-verification": { PutItem: [P.emailLink] },
  // Only its hourly counter: the link is the consumer's (lib/reclaim-link.ts).
  "auth/reclaim-email": { UpdateItem: [P.counter] },
  "auth/change-email": { PutItem: [P.emailLink] },
  "team/create-invite": { PutItem: [P.invite] },
  // Role changes and removals carry the member's role onto their API keys.
  "team/update-member": { UpdateItem: [P.org, P.apiKey] },
  "team/remove-member": { DeleteItem: [P.org, P.email], UpdateItem: [P.apiKey] },
  "organization/rename-organization": { UpdateItem: [P.org] },
  // A plan change is copied onto the organization's API keys.
  "admin/update-organization": { UpdateItem: [P.org, P.apiKey] },
  // Keys are counted on their organization; revoking sets revokedAt, deleting takes the count back.
  "api-keys/create-api-key": { PutItem: [P.apiKey], UpdateItem: [P.org] },
  "api-keys/update-api-key": { UpdateItem: [P.apiKey] },
  "api-keys/delete-api-key": { DeleteItem: [P.apiKey], UpdateItem: [P.apiKey, P.org] },
  "sites/create-site": { PutItem: [P.org] },
  "sites/update-site": { UpdateItem: [P.org] },
  "sites/delete-site": { DeleteItem: [P.org, P.siteSequence] },
  "webhooks/create-webhook": { PutItem: [P.webhook], UpdateItem: [P.org] },
  "webhooks/update-webhook": { UpdateItem: [P.webhook] },
  "webhooks/rotate-webhook-secret": { UpdateItem: [P.webhook] },
  "webhooks/delete-webhook": { DeleteItem: [P.webhook], PutItem: [P.purge], UpdateItem: [P.webhook, P.org, P.form] },
  "forms/create-form": { PutItem: [P.form], UpdateItem: [P.org] },
  "forms/duplicate-form": { PutItem: [P.form], UpdateItem: [P.org] },
  "forms/update-form": { UpdateItem: [P.form] },
  // SES's bounce and complaint events: the suppressed recipient, on its form (lib/store/suppressed-recipients.ts).
  "email-events/record-suppressions": { UpdateItem: [P.form] },
  "forms/publish-form": { UpdateItem: [P.form] },
  "forms/unpublish-form": { UpdateItem: [P.form] },
  "forms/delete-form": { PutItem: [P.purge], UpdateItem: [P.form, P.org, P.webhook] },
  // Moderation moves the daily counts of the submission's day between inbox and spam.
  "submissions/update-submission": { UpdateItem: [P.submission, P.siteDay], PutItem: [P.release] },
  "submissions/delete-submission": { DeleteItem: [P.submission] },
  "submissions/bulk-delete-submissions": { BatchWriteItem: [P.submission] },
  "submissions/erase-submissions": { BatchWriteItem: [P.submission] },
  "outbound-webhooks/create-outbound-webhook": { PutItem: [P.form], UpdateItem: [P.form] },
  "outbound-webhooks/update-outbound-webhook": { UpdateItem: [P.form] },
  "outbound-webhooks/delete-outbound-webhook": { DeleteItem: [P.form], UpdateItem: [P.form] },
  "outbound-webhooks/retry-outbound-delivery": { UpdateItem: [P.delivery] },
  // The pace stamp on the endpoint, then the test event's delivery.
  "outbound-webhooks/test-outbound-webhook": { UpdateItem: [P.form], PutItem: [P.delivery] },
  // Intake: the submission and its markers, the counts (webhook, site sequence, a new form on its
  // site), the spam counter, an auto-created form and its new fields; deletes only the duplicate
  // marker it takes back when its write fails (a fault path).
  "intake/receive-submission": {
    PutItem: [P.submission, P.form, P.idempotency, P.lead, P.duplicate],
    UpdateItem: [P.webhook, P.siteSequence, P.siteDay, P.org, P.form, P.counter],
    DeleteItem: [P.duplicate],
  },
  // The consumer: action claims (released on failure: a fault path), leads, deliveries, releases,
  // and the background purge (submissions, then the form's partition, then the job).
  // Also the reclaim links of POST /auth/reclaim-email (lib/reclaim-link.ts).
  [QUEUE_CONSUMER.handler]: {
    PutItem: [P.action, P.delivery, P.emailLink],
    UpdateItem: [P.action, P.delivery, P.form, P.purge, P.submission],
    DeleteItem: [P.purge, P.release, P.action],
    BatchWriteItem: [P.submission, P.form],
  },
};

/** The bookkeeping partitions every authenticated request may update (lib/auth/api-key-auth.ts). */
export const BOOKKEEPING = { counter: P.counter, apiKey: P.apiKey } as const;
/** The API-key attributes bookkeeping may set: lastUsedAt (each minute of use) and creatorRole (a legacy key's first use). */
export const API_KEY_BOOKKEEPING_ATTRIBUTES = ["pk", "sk", "lastUsedAt", "creatorRole"] as const;

export function grantOf(def: Pick<RouteDef, "handler" | "table"> & { auth?: RouteDef["auth"] }): TableGrant {
  return {
    access: def.table,
    writes: def.table === "write" ? (TABLE_WRITES[def.handler] ?? {}) : {},
    bookkeeping: def.table !== "none" && def.auth !== undefined && def.auth !== "public",
  };
}

/** Whether `grant` lets `operation` write the partition `pk` (what IAM decides, minus the attribute condition). */
export function writeAllowed(grant: TableGrant, operation: string, pk: string | undefined): boolean {
  if (pk === undefined || grant.access === "none") return false;
  const prefixes = [
    ...(grant.access === "write" ? (grant.writes[operation as WriteOperation] ?? []) : []),
    ...(grant.bookkeeping && operation === "UpdateItem" ? [BOOKKEEPING.counter, BOOKKEEPING.apiKey] : []),
  ];
  return prefixes.some((p) => (p.endsWith("#") ? pk.startsWith(p) : pk === p));
}

/** A prefix as IAM's StringLike pattern: `ORG#` → `ORG#*`; a whole key (`PLATFORM`) as it is. */
export const leadingKeyPattern = (p: string) => (p.endsWith("#") ? `${p}*` : p);
