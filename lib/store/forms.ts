import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { countOn, insertCounted } from "./counted";
import type { Retention } from "./expiry";
import { allMatching, filteredPage } from "./filtered-query";
import { fromItem } from "./items";
import { keys } from "./keys";
import { type UnchangedUpdate, updateIfUnchanged } from "./optimistic";
import type { Outcome } from "./outcomes";
import type { JobStatus, SuppressionReason } from "./shapes";
import { transact } from "./transactions";

/**
 * Forms (docs/data-model.md, "Form"): the item, its reads and lists, creation (a builder form, a
 * webhook's auto form) and updates. Intake's growth of the schema is ./form-fields.ts, the
 * permanent deletion ./form-deletion.ts.
 */

export const FIELD_TYPES = [
  "text",
  "name",
  "email",
  "phone",
  "address",
  "number",
  "url",
  "date",
  "textarea",
  "checkbox",
  "select",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface FormField {
  label: string;
  type: FieldType;
  required: boolean;
  order: number;
}

/** Why SES suppresses an address: a permanent bounce or a complaint (docs/data-model.md). */
export interface SuppressedRecipient {
  reason: SuppressionReason;
  /** When SES reported it. */
  at: string;
  /** SES's words (the bounce's type and diagnostic, the complaint's feedback type); absent on older entries. */
  detail?: string;
}

/**
 * The confirmation email to the person who filled the form (lib/notifications/confirmation.ts,
 * docs/email.md). Absent until first saved: off.
 */
export interface ConfirmationSettings {
  enabled: boolean;
  /** The subject and the message, with the placeholders `{name}`, `{reference}` and `{form}`. */
  subject: string;
  message: string;
  /** The display name before the sender's address; null: the deployment's own (NOTIFY_FROM). */
  senderName: string | null;
  /** Where a reply goes; null: to the sender. */
  replyTo: string | null;
}

export interface FormSettings {
  notifyEmails: string[];
  /**
   * Where a browser goes after a successful submission that names no `_redirect` of its own
   * (lib/intake/intake.ts). Absent on forms saved before it existed.
   */
  redirectUrl?: string | null;
  confirmation?: ConfirmationSettings;
  /**
   * Forward-only (docs/privacy.md, "Forward-only forms"): a submission's values are deleted once
   * everything it goes to is final (lib/outbound/forward-only.ts). Absent: off.
   */
  forwardOnly?: boolean;
}

/** `webhook`: created from a webhook's first submission; `builder`: created through the API. */
export const FORM_ORIGINS = ["webhook", "builder"] as const;
export type FormOrigin = (typeof FORM_ORIGINS)[number];
export const FORM_STATUSES = ["draft", "published"] as const;
export type FormStatus = (typeof FORM_STATUSES)[number];

/** A retention job's progress, as the form item holds it (the job's own item drives it: lib/store/retention-jobs.ts). */
export interface RetentionProgress {
  generation: number;
  status: JobStatus;
  /** Submissions examined, and those whose expiry changed. */
  examined: number;
  updated: number;
  startedAt: string;
  finishedAt: string | null;
}

export interface Form {
  id: string;
  orgId: string;
  siteId: string;
  name: string;
  /** `webhook`: created from a webhook's first submission; `builder`: created through the API. */
  origin: FormOrigin;
  /** For auto-created forms: the webhook whose first submission created it. */
  createdByWebhookId: string | null;
  status: FormStatus;
  /**
   * Fields by key. A map (not a list) so concurrent submissions can each add their new fields
   * with `SET fields.#key = if_not_exists(...)` and none is lost.
   */
  fields: Record<string, FormField>;
  settings: FormSettings;
  /**
   * Notification addresses SES reported as bouncing or complaining, by address (lowercase); the
   * notification skips them (lib/notifications/suppression.ts). Absent until the first one.
   */
  suppressedRecipients?: Record<string, SuppressedRecipient>;
  archivedAt: string | null;
  /** Set when the form is being purged: it is gone for every reader from then on. */
  deletedAt: string | null;
  /**
   * Counted in its site's `formCount` (every form created since sites count them): its permanent
   * deletion takes the count back. A site is deleted only when the count is 0 (lib/store/sites.ts).
   */
  countedOnSite?: true;
  /** How long its submissions are kept (docs/privacy.md, "Retention"); absent on older forms: the defaults. */
  retention?: Retention;
  /** The progress of the job applying its latest retention change (lib/store/retention-jobs.ts); absent before the first. */
  retentionJob?: RetentionProgress;
  createdAt: string;
  updatedAt: string;
}

/** The site's form counter, and the transaction item that moves it (the site must exist). */
export const SITE_FORM_COUNTER = "formCount";
export const countOnSite = (form: Pick<Form, "orgId" | "siteId">, delta: 1 | -1) =>
  countOn(keys.site(form.orgId, form.siteId), SITE_FORM_COUNTER, delta);

export const formItem = (form: Form) => ({
  ...keys.form(form.id),
  ...keys.formIndex(form.siteId, form.createdAt, form.id),
  type: "form",
  ...form,
});

export const toForm = (item: Record<string, unknown>): Form => {
  const rest = fromItem<Record<string, unknown>>(item);
  // Field keys come from submitted data: rebuild the map without a prototype so a key such as
  // `__proto__` stays an ordinary key.
  const fields = Object.assign(Object.create(null), rest.fields ?? {}) as Record<string, FormField>;
  return { ...(rest as unknown as Form), fields };
};

/**
 * A form by id. `consistent` where a form a racing first submission just created and linked must
 * be seen (an eventually consistent read could miss it, and the request would link a second form).
 */
export async function getForm(formId: string, { consistent = false } = {}): Promise<Form | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.form(formId), ...(consistent ? { ConsistentRead: true } : {}) }),
  );
  return out.Item ? toForm(out.Item) : undefined;
}

/**
 * A form's retention as stored now, and the generation of its latest change (its retention job's;
 * null before any change), read strongly consistent: an import pass dates its rows by it
 * (lib/import-job.ts). Undefined when the form is gone.
 */
export async function getFormRetention(
  formId: string,
): Promise<{ retention: Retention | undefined; generation: number | null } | undefined> {
  const out = await db().send(
    new GetCommand({
      TableName: tableName(),
      Key: keys.form(formId),
      ConsistentRead: true,
      ProjectionExpression: "#retention, retentionJob",
      ExpressionAttributeNames: { "#retention": "retention" },
    }),
  );
  if (!out.Item) return undefined;
  const { retention, retentionJob } = out.Item as Pick<Form, "retention" | "retentionJob">;
  return { retention, generation: retentionJob?.generation ?? null };
}

/**
 * Stores a builder form and counts it on its site in one transaction, which holds only while the
 * site exists: a form can never be created into a site deleted meanwhile.
 */
export async function putForm(form: Form): Promise<Outcome<"OK" | "PARENT_NOT_FOUND">> {
  const outcome = await insertCounted({
    item: formItem({ ...form, countedOnSite: true }),
    parent: keys.site(form.orgId, form.siteId),
    counter: SITE_FORM_COUNTER,
    max: Number.MAX_SAFE_INTEGER,
  });
  return outcome.inserted ? "OK" : "PARENT_NOT_FOUND";
}

/**
 * Creates a webhook's auto form and links the webhook to it in one transaction, only if the
 * webhook still points where it did (`replacing`: no form, or a form that no longer exists): of
 * two first submissions arriving together, one creates the form and the other is answered
 * "CONFLICT" (it reads the link again), so a webhook never gets two forms. The transaction
 * touches the webhook item, which concurrent submissions also write (their count): a
 * TransactionConflict is retried (./transactions.ts), and past its attempts is a 409 CONFLICT
 * AppError.
 */
export async function createLinkedForm(
  form: Form,
  webhookId: string,
  /** The form id the webhook points at now: null, or a form that no longer exists. */
  replacing: string | null,
): Promise<Outcome<"OK" | "CONFLICT">> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "form",
      {
        Put: { TableName, Item: formItem({ ...form, countedOnSite: true }), ConditionExpression: "attribute_not_exists(pk)" },
      },
    ],
    [
      "webhook",
      {
        Update: {
          TableName,
          Key: keys.webhook(webhookId),
          UpdateExpression: "SET formId = :formId",
          ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(formId) OR formId = :old)",
          ExpressionAttributeValues: { ":formId": form.id, ":old": replacing },
        },
      },
    ],
    // Counted on the site like a builder form (a site with a webhook cannot be deleted, so it exists).
    ["site", countOnSite(form, 1)],
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("webhook")) return "CONFLICT";
  throw cancelled.error;
}

/** A site's forms in creation order, without forms being purged; archived or not, as asked. */
export const listSiteForms = (siteId: string, archived: boolean, limit: number, cursor?: string) =>
  filteredPage(
    {
      partition: keys.formIndexPartition(siteId),
      filter: {
        expression: archived
          ? "attribute_type(#deletedAt, :null) AND attribute_type(#archivedAt, :string)"
          : "attribute_type(#deletedAt, :null) AND attribute_type(#archivedAt, :null)",
        names: { "#deletedAt": "deletedAt", "#archivedAt": "archivedAt" },
        values: archived ? { ":null": "NULL", ":string": "S" } : { ":null": "NULL" },
      },
      map: toForm,
    },
    { limit, ...(cursor ? { cursor } : {}), maxExamined: 1000 },
  );

/** Every form of a site, in creation order, archived and purging ones included (erasure visits them all). */
export async function allSiteForms(siteId: string): Promise<Form[]> {
  const forms: Form[] = [];
  for await (const page of allMatching({ partition: keys.formIndexPartition(siteId), map: toForm })) forms.push(...page.items);
  return forms;
}

export type FormChanges = Partial<
  Pick<Form, "name" | "fields" | "settings" | "status" | "archivedAt" | "retention" | "retentionJob">
>;

/** The condition of every update of a form: it is not being purged. */
export const FORM_NOT_PURGING = {
  expression: "attribute_type(#deletedAt, :null)",
  names: { "#deletedAt": "deletedAt" },
  values: { ":null": "NULL" },
};

/**
 * Applies `changes` if the form still has the `updatedAt` the caller read (intake adding fields
 * to an auto-created form changes it too, so a schema edit never drops a field that arrived
 * meanwhile). "CONFLICT" when it changed, undefined when it is gone or being purged.
 */
export async function updateForm(
  current: Form,
  changes: FormChanges,
  updatedAt: string,
): Promise<Form | Outcome<"CONFLICT"> | undefined> {
  return updateIfUnchanged(formUpdate(current, changes, updatedAt));
}

/** The optimistic update of a form (also audited: ./form-audited-update.ts). */
export function formUpdate(current: Form, changes: FormChanges, updatedAt: string): UnchangedUpdate<Form> {
  return {
    key: keys.form(current.id),
    changes,
    expectedUpdatedAt: current.updatedAt,
    updatedAt,
    condition: FORM_NOT_PURGING,
    // A form being purged is gone for its editors too.
    isConflict: (old) => old.deletedAt === null,
    map: toForm,
  };
}
