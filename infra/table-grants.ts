import { BOOKKEEPER, DIGESTS, QUEUE_CONSUMER, type RouteDef } from "../functions/routes";
import { API_KEY_COUNTER_SCOPE } from "../lib/auth/rate-limit";
import { STRIPPED_ATTRIBUTES } from "../lib/store/forward-markers";
import { type Key, keys } from "../lib/store/keys";
import { TABLE } from "../lib/store/table-definition";
import {
  API_KEY_ITEM,
  CONFIRMATION_CLAIM,
  CONFIRMATION_SUPPRESSION,
  COUNTER,
  EMAIL_CLAIM_ITEM,
  ENDPOINT_CHANGES,
  ENDPOINT_ITEM,
  FORM_COUNTS,
  FORM_COUNTS_TOMBSTONE,
  FORM_ITEM,
  MEMBER_ITEM,
  ORGANIZATION_ITEM,
  SITE_ITEM,
  SITE_SETTINGS,
  TAG_ITEM,
  TAG_NAME_CLAIM,
  WEBHOOK_ITEM,
} from "./write-attributes";

/**
 * What each function may do to the table, narrowed with IAM's DynamoDB condition keys
 * (docs/deployment.md, "Least privilege"). Every function with table access may read (GetItem,
 * BatchGetItem, Query on the table and its one index, ConditionCheckItem in transactions). Writes
 * are granted per operation, each on the partitions the function writes, named by key prefix:
 * `dynamodb:LeadingKeys` is the partition key of every item a write touches (each item of a
 * BatchWriteItem and of a transaction is authorized on its own), and `ForAllValues:StringLike`
 * requires all of them to match. So the intake function can put submissions but delete only its
 * duplicate markers, and signup can delete only the invite and the link it consumes.
 *
 * A partition that holds items of several kinds (`ORG#`: the organization, its members, its
 * sites) or items some writers may only partly change is granted by attribute as well:
 * `only(P.org, ["formCount"])` lets a put or an update name no top-level attribute but those (and
 * the key): `ForAllValues:StringEquals` on `dynamodb:Attributes`, which IAM evaluates on every
 * name the request carries (item, update and condition expressions). So intake, which counts a
 * new form on its site, cannot set a member's role or an organization's plan. IAM has no
 * condition on the sort key, so a put names what it writes, not which item it replaces, and a
 * delete of a partition reaches each of its items (docs/deployment.md says what that leaves).
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html
 *
 * DynamoDB Local does not evaluate IAM: infra/local/grants.ts holds every function of the test
 * stack to these same grants, attributes included, so the suite fails when a function writes
 * where its grant does not reach.
 */

export type WriteOperation = "PutItem" | "UpdateItem" | "DeleteItem" | "BatchWriteItem";

/** Items of a partition, but only the named top-level attributes of them (the key, pk and sk, always). */
export interface AttributeTarget {
  partition: string;
  attributes: readonly string[];
}

/** Where a write operation may reach: whole items of a partition (its prefix), or only some attributes of them. */
export type WriteTarget = string | AttributeTarget;

export type Writes = Partial<Record<WriteOperation, readonly WriteTarget[]>>;

export interface TableGrant {
  access: "none" | "read" | "write";
  writes: Writes;
}

/** The items of `partition`, but only `attributes` of them. */
export const only = (partition: string, attributes: readonly string[]): AttributeTarget => ({ partition, attributes });

/** Every write names the item's key (AWS: the key attributes must be listed with dynamodb:Attributes). */
export const KEY_ATTRIBUTES = [TABLE.partitionKey, TABLE.sortKey] as const;

/** `ORG#…` → `ORG#`; a partition without `#` (the `PLATFORM` item) is its own prefix. */
const prefix = (key: Key) => (key.pk.includes("#") ? key.pk.slice(0, key.pk.indexOf("#") + 1) : key.pk);
/** One scope's counters: `COUNTER#login-ip#`. */
const counters = (scope: string) => keys.counter(scope, "", 0).pk;

/** The partitions, from lib/store/keys.ts (the one module that builds keys), so a renamed prefix follows. */
export const P = {
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
  webhookCounts: prefix(keys.webhookCounts("s", "w")), // WEBHOOK_COUNTS#: a site's webhooks' counts
  streamCheckpoint: prefix(keys.streamCheckpoint("e", "s")),
  sentEmail: prefix(keys.sentEmail("m")), // MAIL#: every email sent, with its fate
  searchEntry: prefix(keys.searchEntry("f", "t", "c", "s")), // FIND#: the forms' search indexes
  audit: prefix(keys.auditEntry("o", "t", "a")), // AUDIT#: an organization's audit log (put only: entries are never changed)
  retentionJob: prefix(keys.retentionJob("f")), // RETENTION#: a form's retention job (lib/retention-job.ts)
  forward: prefix(keys.forwardMarker("s")), // FORWARD#: a forward-only form's submission still holding its values
  viewEntry: prefix(keys.viewEntry("f", "x", "c", "s")), // VIEW#: the inbox's filter entries (lib/store/view-entries.ts)
  readRanges: prefix(keys.readRanges("u", "f")), // READS#: a member's read ranges per form (lib/store/read-ranges.ts)
  importJob: prefix(keys.importJob("f", "i")), // IMPORT#: a form's import jobs and its lock (lib/store/imports.ts)
  // Counters by scope (lib/accounts.ts, lib/spam/evidence.ts, lib/auth/rate-limit.ts).
  loginEmailCounter: counters("login-email"),
  loginIpCounter: counters("login-ip"),
  verifyEmailCounter: counters("verify-email"),
  reclaimEmailCounter: counters("reclaim-email"),
  passwordResetCounter: counters("password-reset"),
  passwordResetIpCounter: counters("password-reset-ip"),
  passwordChangeCounter: counters("password-change"),
  changeEmailCounter: counters("change-email"),
  changeEmailAccountCounter: counters("change-email-account"),
  spamIpCounter: counters("spam-ip"),
  apiKeyCounter: counters(API_KEY_COUNTER_SCOPE),
};

/**
 * The partitions written by attribute only: each holds items of several kinds, or items whose
 * attributes decide who may do what (a member's role, an organization's plan, an address's
 * holder, a key's permissions, a webhook's secret, an endpoint's URL). A put or update of them
 * must name its attributes (test/standalone/infra/functions.test.ts); deletes cannot be narrowed so.
 */
export const BY_ATTRIBUTE = [P.org, P.email, P.apiKey, prefix(keys.counter("s", "x", 0)), P.webhook, P.form] as const;

/**
 * The writes of each function that writes, by handler. Found by reading each handler's store
 * calls, and checked by the test stack (infra/local/grants.ts) on every path the suite takes;
 * the rare paths no test reaches are marked. A new route adds its line: `only(partition,
 * attributes)` on the partitions of BY_ATTRIBUTE, the partition alone elsewhere.
 */
// biome-ignore format: one function per line reads as a table
export const TABLE_WRITES: Record<string, Writes> = {
  // Signup: the account's items, the verification link, the invite or reclaim link it consumes.
  // The first-account rule's claim is granted apart (FIRST_ACCOUNT_WRITES). A reclaim marks the
  // unverified account it takes the address from (its condition reads that account's address).
  "auth/signup": { PutItem: [only(P.email, EMAIL_CLAIM_ITEM), only(P.org, ORGANIZATION_ITEM), only(P.org, MEMBER_ITEM), P.session, P.emailLink], DeleteItem: [P.invite, P.emailLink], UpdateItem: [only(P.org, ["emailLostAt", "email"])] },
  "auth/login": { PutItem: [P.session], UpdateItem: [only(P.loginEmailCounter, COUNTER), only(P.loginIpCounter, COUNTER)] },
  "auth/logout": { DeleteItem: [P.session] },
  // A verification marks the member and the claim (its conditions read the member's address and
  // the claim's holder, so IAM counts them as named); an address change also puts the new claim
  // (taking it from an unverified holder, who is marked), releases the old one, and moves the member.
  "auth/verify-email": { DeleteItem: [P.emailLink, P.email], UpdateItem: [only(P.org, ["emailVerifiedAt", "email", "emailLostAt"]), only(P.email, ["verifiedAt", "userId"])], PutItem: [only(P.email, EMAIL_CLAIM_ITEM)] },
  "auth/resend-verification": { PutItem: [P.emailLink], UpdateItem: [only(P.verifyEmailCounter, COUNTER)] },
  // Only its hourly counter: the link is the consumer's (lib/reclaim-link.ts).
  "auth/reclaim-email": { UpdateItem: [only(P.reclaimEmailCounter, COUNTER)] },
  "auth/change-email": { PutItem: [P.emailLink], UpdateItem: [only(P.changeEmailCounter, COUNTER), only(P.changeEmailAccountCounter, COUNTER)] },
  // The reset link (also for an address without an account: the same work either way) and its counters.
  "auth/request-password-reset": { PutItem: [P.emailLink], UpdateItem: [only(P.passwordResetCounter, COUNTER), only(P.passwordResetIpCounter, COUNTER)] },
  // The link consumed; the member's password, session epoch and verification (its condition reads
  // the member's address); the address's claim (its condition reads the holder).
  "auth/reset-password": { DeleteItem: [P.emailLink], UpdateItem: [only(P.org, ["passwordHash", "sessionEpoch", "emailVerifiedAt", "email"]), only(P.email, ["verifiedAt", "userId"])] },
  // The member's password and session epoch, and the current session carried to the new epoch.
  "auth/change-password": { UpdateItem: [only(P.org, ["passwordHash", "sessionEpoch"]), P.session, only(P.passwordChangeCounter, COUNTER)] },
  "auth/end-other-sessions": { UpdateItem: [only(P.org, ["sessionEpoch"]), P.session] },
  "auth/update-me": { UpdateItem: [only(P.org, ["name"])] },
  // The member's time zone, choices and digest schedule, with its place in the due index (GSI1 keys).
  "account/update-notifications": { UpdateItem: [only(P.org, ["timeZone", "notifications", "digests", "gsi1pk", "gsi1sk"])] },
  "team/create-invite": { PutItem: [P.invite, P.audit] },
  // Role changes and removals carry the member's role onto their API keys.
  "team/update-member": { UpdateItem: [only(P.org, ["role"]), only(P.apiKey, ["creatorRole"])], PutItem: [P.audit] },
  "team/remove-member": { DeleteItem: [P.org, P.email], UpdateItem: [only(P.apiKey, ["creatorRole"])], PutItem: [P.audit] },
  "organization/rename-organization": { UpdateItem: [only(P.org, ["name", "updatedAt"])] },
  // A plan change is copied onto the organization's API keys.
  "admin/update-organization": { UpdateItem: [only(P.org, ["plan", "updatedAt"]), only(P.apiKey, ["plan"])], PutItem: [P.audit] },
  // Keys are counted on their organization; a key that met a plan change is taken back (deleted, uncounted).
  "api-keys/create-api-key": { PutItem: [only(P.apiKey, API_KEY_ITEM), P.audit], UpdateItem: [only(P.org, ["apiKeyCount"])], DeleteItem: [P.apiKey] },
  // Its condition reads the key's organization.
  "api-keys/update-api-key": { UpdateItem: [only(P.apiKey, ["name", "permissions", "customRateLimit", "updatedAt", "orgId"])] },
  // Revoking sets revokedAt, deleting takes the count back.
  "api-keys/delete-api-key": { DeleteItem: [P.apiKey], UpdateItem: [only(P.apiKey, ["revokedAt", "updatedAt", "orgId"]), only(P.org, ["apiKeyCount"])], PutItem: [P.audit] },
  "sites/create-site": { PutItem: [only(P.org, SITE_ITEM)] },
  "sites/update-site": { UpdateItem: [only(P.org, SITE_SETTINGS)], PutItem: [P.audit] },
  "sites/delete-site": { DeleteItem: [P.org, P.siteSequence], PutItem: [P.audit] },
  "webhooks/create-webhook": { PutItem: [only(P.webhook, WEBHOOK_ITEM)], UpdateItem: [only(P.org, ["webhookCount"])] },
  "webhooks/update-webhook": { UpdateItem: [only(P.webhook, ["name", "source", "isEnabled", "archivedAt", "formId", "updatedAt", "compatibility"])] },
  "webhooks/rotate-webhook-secret": { UpdateItem: [only(P.webhook, ["secretHash", "secretLast4", "updatedAt"])], PutItem: [P.audit] },
  // Archives the webhook; its permanent deletion uncounts it (and its purged form) on the site and
  // leaves its counts a tombstone.
  "webhooks/delete-webhook": { DeleteItem: [P.webhook], PutItem: [P.purge, P.webhookCounts, P.audit], UpdateItem: [only(P.webhook, ["archivedAt", "isEnabled", "updatedAt"]), only(P.org, ["webhookCount", "formCount"]), only(P.form, ["deletedAt"])] },
  "forms/create-form": { PutItem: [only(P.form, FORM_ITEM)], UpdateItem: [only(P.org, ["formCount"])] },
  "forms/duplicate-form": { PutItem: [only(P.form, FORM_ITEM)], UpdateItem: [only(P.org, ["formCount"])] },
  // A retention change replaces the form's retention job and records its audit entry, in one transaction.
  "forms/update-form": { UpdateItem: [only(P.form, ["name", "fields", "settings", "archivedAt", "updatedAt", "deletedAt", "retention", "retentionJob"])], PutItem: [P.retentionJob, P.audit] },
  // SES's events: each email's fate (lib/store/sent-emails.ts); a suppressed notification address on
  // its form (lib/store/suppressed-recipients.ts: its condition reads whether the form is purged and
  // still notifies the address), a suppressed confirmation recipient on its item in the form's partition.
  "email-events/record-suppressions": { UpdateItem: [only(P.form, ["suppressedRecipients", "deletedAt", "settings"]), only(P.form, CONFIRMATION_SUPPRESSION), P.sentEmail] },
  // Lifting a suppressed address: a notification address's entry on the form (its condition reads
  // whether the form is purged), or a confirmation recipient's suppression on its item.
  "emails/lift-suppression": { UpdateItem: [only(P.form, ["suppressedRecipients", "deletedAt"]), only(P.form, CONFIRMATION_SUPPRESSION)] },
  "forms/publish-form": { UpdateItem: [only(P.form, ["status", "updatedAt", "deletedAt"])] },
  "forms/unpublish-form": { UpdateItem: [only(P.form, ["status", "updatedAt", "deletedAt"])] },
  "forms/delete-form": { PutItem: [P.purge, P.audit], UpdateItem: [only(P.form, ["deletedAt", "orgId", "archivedAt", "updatedAt"]), only(P.org, ["formCount"]), only(P.webhook, ["formId"])] },
  // Moderation moves the daily counts of the submission's day and its form's counts between inbox and spam.
  "submissions/update-submission": { UpdateItem: [P.submission, P.siteDay, only(P.form, FORM_COUNTS)], PutItem: [P.release] },
  "submissions/delete-submission": { DeleteItem: [P.submission], PutItem: [P.audit] },
  "submissions/bulk-delete-submissions": { DeleteItem: [P.submission], PutItem: [P.audit] },
  "submissions/erase-submissions": { DeleteItem: [P.submission], PutItem: [P.audit] },
  // Triage (lib/store/triage.ts, notes.ts, timeline.ts): the submission's update, its timeline
  // entries and notes in its own partition, the audit entry.
  "triage/patch-submission": { UpdateItem: [P.submission], PutItem: [P.submission, P.audit] },
  "triage/bulk-update-submissions": { UpdateItem: [P.submission], PutItem: [P.submission, P.audit] },
  "triage/create-note": { UpdateItem: [P.submission], PutItem: [P.submission, P.audit] },
  "triage/update-note": { UpdateItem: [P.submission], PutItem: [P.submission, P.audit] },
  "triage/delete-note": { DeleteItem: [P.submission], UpdateItem: [P.submission], PutItem: [P.submission, P.audit] },
  // Tags live in the organization's partition (lib/store/tags.ts): the tag, its name's claim, the
  // organization's tagCount. A rename names `name`, as renaming the organization or oneself does.
  "tags/create-tag": { PutItem: [only(P.org, TAG_ITEM), only(P.org, TAG_NAME_CLAIM), P.audit], UpdateItem: [only(P.org, ["tagCount"])] },
  "tags/update-tag": { UpdateItem: [only(P.org, ["name", "colour", "updatedAt"])], PutItem: [only(P.org, TAG_NAME_CLAIM), P.audit], DeleteItem: [P.org] },
  "tags/delete-tag": { DeleteItem: [P.org], UpdateItem: [only(P.org, ["tagCount"])], PutItem: [P.audit] },
  // A member's read state of a form: one item, put whole under its version (lib/store/read-ranges.ts).
  "triage/mark-read": { PutItem: [P.readRanges] },
  "triage/mark-unread": { PutItem: [P.readRanges] },
  "triage/mark-all-read": { PutItem: [P.readRanges] },
  // An export writes only its audit entry (lib/export.ts).
  "submissions/export-submissions": { PutItem: [P.audit] },
  // An import: its job, the form's lock and the audit entry (one transaction), and the fields its mapping adds to the form.
  "imports/start-import": { PutItem: [P.importJob, P.audit], UpdateItem: [only(P.form, ["fields", "updatedAt"])] },
  // Access requests put their audit entry on its own; the organization-wide erasure deletes in
  // transactions that carry the entry (lib/store/submissions.ts, deleteSubmissionsAudited).
  "organization/request-access": { PutItem: [P.audit] },
  "organization/erase-everywhere": { DeleteItem: [P.submission], PutItem: [P.audit] },
  "outbound-webhooks/create-outbound-webhook": { PutItem: [only(P.form, ENDPOINT_ITEM)], UpdateItem: [only(P.form, ["count", "type"])] },
  "outbound-webhooks/update-outbound-webhook": { UpdateItem: [only(P.form, ENDPOINT_CHANGES)] },
  "outbound-webhooks/delete-outbound-webhook": { DeleteItem: [P.form], UpdateItem: [only(P.form, ["count"])] },
  "outbound-webhooks/retry-outbound-delivery": { UpdateItem: [P.delivery] },
  // The pace stamp on the endpoint (its condition reads isEnabled), then the test event's delivery.
  "outbound-webhooks/test-outbound-webhook": { UpdateItem: [only(P.form, ["lastTestAt", "isEnabled"])], PutItem: [P.delivery] },
  // Intake: the submission and its markers, the site's sequence, a new form counted on its site,
  // the spam counter (each minute's count is an attribute `s<offset>`), an
  // auto-created form linked to its webhook and its new fields; deletes only the duplicate marker
  // it takes back when its write fails (a fault path).
  "intake/receive-submission": {
    PutItem: [P.submission, only(P.form, FORM_ITEM), P.idempotency, P.lead, P.duplicate],
    UpdateItem: [
      only(P.webhook, ["formId"]),
      P.siteSequence,
      only(P.org, ["formCount"]),
      only(P.form, ["fields", "updatedAt"]),
      only(P.spamIpCounter, [...COUNTER, "s*"]),
    ],
    DeleteItem: [P.duplicate],
  },
  // The consumer: action claims (released on failure: a fault path), leads, deliveries, releases,
  // an endpoint's failing state and its disabling on a 410, and the background purge
  // (submissions, then the form's partition, then the job); the reclaim links of
  // POST /auth/reclaim-email (lib/reclaim-link.ts); a confirmation's daily claim on its form, and
  // the record of each email sent (lib/pipeline/confirm.ts, lib/notifications/send-recorded.ts).
  // A forward-only form's marker: put, its emails recorded final, deleted after the strip (an
  // UpdateItem of the submission: lib/outbound/forward-only.ts).
  [QUEUE_CONSUMER.handler]: {
    // The end of a purge leaves the form's counts a tombstone (lib/store/purge-jobs.ts).
    PutItem: [P.action, P.delivery, P.emailLink, only(P.form, FORM_COUNTS_TOMBSTONE), only(P.form, CONFIRMATION_CLAIM), P.forward,
      // An import's submissions (lib/import-job.ts).
      P.submission],
    UpdateItem: [
      // An import pass's progress on its job, and its block of the site's reference numbers (lib/import-job.ts).
      P.importJob,
      P.siteSequence,
      P.sentEmail,
      P.action,
      P.delivery,
      only(P.form, ["failing", "failingSince", "healthAt", "gsi1pk", "gsi1sk", "isEnabled", "disabledReason", "disabledAt", "updatedAt"]),
      P.purge,
      P.submission,
      P.retentionJob,
      // A retention pass's progress on its form (lib/store/retention-jobs.ts).
      only(P.form, ["retentionJob"]),
      P.forward,
    ],
    DeleteItem: [P.purge, P.release, P.action, P.retentionJob, P.forward,
      // The form's import lock, released by the import's last pass.
      P.importJob],
    BatchWriteItem: [P.submission, P.form],
  },

  // The bookkeeper (lib/store/bookkeeping.ts): the site's day items, the forms' and webhooks'
  // counts, and each batch's checkpoint; the search entries (lib/store/search-entries.ts); a
  // forward-only submission's strip once its marker is removed (lib/bookkeeping/forward-only.ts).
  [BOOKKEEPER.handler]: {
    UpdateItem: [P.siteDay, only(P.form, FORM_COUNTS), P.webhookCounts, only(P.submission, STRIPPED_ATTRIBUTES)],
    PutItem: [P.streamCheckpoint],
    // A removed submission's emails, outbound deliveries, notes and timeline entries follow it out (lib/bookkeeping/follow-out.ts).
    BatchWriteItem: [P.searchEntry, P.sentEmail, P.delivery, P.submission, P.viewEntry],
  },

  // The digest run: each digest's claim (released when SES refused it), and the member's next due
  // time with its place in the due index (its condition reads gsi1sk); each digest's sent-email
  // record once SES accepted it.
  [DIGESTS.handler]: {
    PutItem: [P.action],
    UpdateItem: [P.action, only(P.org, ["digests", "gsi1pk", "gsi1sk"]), P.sentEmail],
    DeleteItem: [P.action],
  },
};

/**
 * Signup's claim of the first-account rule (lib/config.ts `firstAccountRule`): the `PLATFORM`
 * marker and the member's `platformAdmin`. Granted only where the rule runs, which the CDK app
 * never does (it never sets FIRST_ACCOUNT_ADMIN and requires PLATFORM_ADMIN_EMAILS).
 */
export const FIRST_ACCOUNT_WRITES: Record<string, Writes> = {
  "auth/signup": { PutItem: [P.platform], UpdateItem: [only(P.org, ["platformAdmin"])] },
};

/**
 * What authenticating an API key writes (lib/auth/api-key-auth.ts), in every authenticated
 * function (a session-only route authenticates a key before refusing it): its rate-limit
 * counter, and `lastUsedAt` on the key. Nothing else of a key, and no other counter.
 */
export const BOOKKEEPING: Writes = { UpdateItem: [only(P.apiKeyCounter, COUNTER), only(P.apiKey, ["lastUsedAt"])] };

/** What decides a grant beyond the route entry. */
export interface GrantContext {
  /** Whether the first-account rule runs where the function is deployed (lib/config.ts `firstAccountRule`). */
  firstAccountRule: boolean;
}

function merge(...parts: Writes[]): Writes {
  const out: Partial<Record<WriteOperation, WriteTarget[]>> = {};
  for (const part of parts) {
    for (const [operation, targets] of Object.entries(part) as [WriteOperation, readonly WriteTarget[]][]) {
      out[operation] = [...(out[operation] ?? []), ...targets];
    }
  }
  return out;
}

export function grantOf(
  def: Pick<RouteDef, "handler" | "table"> & { auth?: RouteDef["auth"] },
  context: GrantContext = { firstAccountRule: false },
): TableGrant {
  if (def.table === "none") return { access: "none", writes: {} };
  const writes = def.table === "write" ? (TABLE_WRITES[def.handler] ?? {}) : {};
  const firstAccount = def.table === "write" && context.firstAccountRule ? (FIRST_ACCOUNT_WRITES[def.handler] ?? {}) : {};
  const bookkeeping = def.auth !== undefined && def.auth !== "public" ? BOOKKEEPING : {};
  return { access: def.table, writes: merge(writes, firstAccount, bookkeeping) };
}

const partitionOf = (target: WriteTarget) => (typeof target === "string" ? target : target.partition);
const inPartition = (p: string, pk: string) => (p.endsWith("#") ? pk.startsWith(p) : pk === p);
/** IAM's StringLike for the patterns used here: a trailing `*` is a prefix. */
const nameMatches = (pattern: string, name: string) =>
  pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : name === pattern;

/**
 * Whether `grant` lets `operation` write the item of partition `pk` naming `attributes` (what
 * IAM decides from the statements of `writeStatements`).
 */
export function writeAllowed(
  grant: TableGrant,
  operation: string,
  pk: string | undefined,
  attributes: readonly string[],
): boolean {
  if (pk === undefined || grant.access === "none") return false;
  const targets = grant.writes[operation as WriteOperation] ?? [];
  return targets.some((target) => {
    if (!inPartition(partitionOf(target), pk)) return false;
    if (typeof target === "string") return true;
    const allowed = attributeList(target);
    return attributes.every((name) => allowed.some((pattern) => nameMatches(pattern, name)));
  });
}

/** The names a target allows: the key, then its own. */
const attributeList = (target: AttributeTarget) => [...new Set([...KEY_ATTRIBUTES, ...target.attributes])];

/** One IAM statement of a grant's writes: its actions, the partitions, and the attributes when narrowed. */
export interface WriteStatement {
  operations: WriteOperation[];
  partitions: string[];
  attributes?: string[];
}

/**
 * The grant's writes as IAM statements: operations that reach the same attributes of the same
 * partitions share one (whole-item targets as before: by equal partition sets).
 */
export function writeStatements(grant: TableGrant): WriteStatement[] {
  if (grant.access === "none") return [];
  // Per operation and attribute set, the partitions it reaches.
  const reach = new Map<string, { operation: WriteOperation; attributes?: string[]; partitions: Set<string> }>();
  for (const [operation, targets] of Object.entries(grant.writes) as [WriteOperation, readonly WriteTarget[]][]) {
    for (const target of targets) {
      const attributes = typeof target === "string" ? undefined : attributeList(target);
      const id = JSON.stringify([operation, attributes ? [...attributes].sort() : null]);
      const entry = reach.get(id) ?? { operation, ...(attributes ? { attributes } : {}), partitions: new Set<string>() };
      entry.partitions.add(partitionOf(target));
      reach.set(id, entry);
    }
  }
  // Operations with the same partitions and attributes become one statement.
  const statements = new Map<string, WriteStatement>();
  for (const { operation, attributes, partitions } of reach.values()) {
    const sorted = [...partitions].sort();
    const id = JSON.stringify([sorted, attributes ? [...attributes].sort() : null]);
    const statement = statements.get(id) ?? { operations: [], partitions: sorted, ...(attributes ? { attributes } : {}) };
    statement.operations.push(operation);
    statements.set(id, statement);
  }
  return [...statements.values()];
}

/** A prefix as IAM's StringLike pattern: `ORG#` → `ORG#*`; a whole key (`PLATFORM`) as it is. */
export const leadingKeyPattern = (p: string) => (p.endsWith("#") ? `${p}*` : p);
