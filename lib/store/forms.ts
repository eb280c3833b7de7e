import { GetCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { log } from "../log";
import { countOn, insertCounted } from "./counted";
import { fromItem } from "./items";
import { keys } from "./keys";

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
  reason: "bounce" | "complaint";
  /** When SES reported it. */
  at: string;
}

export interface FormSettings {
  notifyEmails: string[];
  /**
   * Where a browser goes after a successful submission that names no `_redirect` of its own
   * (lib/intake/intake.ts). Absent on forms saved before it existed.
   */
  redirectUrl?: string | null;
}

export interface Form {
  id: string;
  orgId: string;
  siteId: string;
  name: string;
  /** `webhook`: created from a webhook's first submission; `builder`: created through the API. */
  origin: "webhook" | "builder";
  /** For auto-created forms: the webhook whose first submission created it. */
  createdByWebhookId: string | null;
  status: "draft" | "published";
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
 * Stores a builder form and counts it on its site in one transaction, which holds only while the
 * site exists: a form can never be created into a site deleted meanwhile. "SITE_GONE" otherwise.
 */
export async function putForm(form: Form): Promise<"OK" | "SITE_GONE"> {
  const outcome = await insertCounted({
    item: formItem({ ...form, countedOnSite: true }),
    parent: keys.site(form.orgId, form.siteId),
    counter: SITE_FORM_COUNTER,
    max: Number.MAX_SAFE_INTEGER,
  });
  return outcome.inserted ? "OK" : "SITE_GONE";
}

/**
 * Creates a webhook's auto form and links the webhook to it in one transaction, only if the
 * webhook still has no form: of two first submissions arriving together, one creates the form
 * and the other finds it ("LINKED_ELSEWHERE"), so a webhook never gets two forms.
 */
export async function createLinkedForm(
  form: Form,
  webhookId: string,
  /** The form id the webhook points at now: null, or a form that no longer exists. */
  replacing: string | null,
): Promise<"CREATED" | "LINKED_ELSEWHERE"> {
  const TableName = tableName();
  try {
    await db().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: { TableName, Item: formItem({ ...form, countedOnSite: true }), ConditionExpression: "attribute_not_exists(pk)" },
          },
          {
            Update: {
              TableName,
              Key: keys.webhook(webhookId),
              UpdateExpression: "SET formId = :formId",
              ConditionExpression: "attribute_exists(pk) AND (attribute_not_exists(formId) OR formId = :old)",
              ExpressionAttributeValues: { ":formId": form.id, ":old": replacing },
            },
          },
          // Counted on the site like a builder form (a site with a webhook cannot be deleted, so it exists).
          countOnSite(form, 1),
        ],
      }),
    );
    return "CREATED";
  } catch (error) {
    if (cancellationReasons(error)?.[1] === "ConditionalCheckFailed") return "LINKED_ELSEWHERE";
    throw error;
  }
}

/**
 * DynamoDB refuses an update expression longer than 4 KB (a ValidationException). One field's
 * clause is about 40 characters, so a submission bringing ~90 new fields at once would not fit:
 * the fields are written in chunks whose expression stays under this budget.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-expression-parameters
 */
const MAX_EXPRESSION_CHARS = 3_500;

/**
 * Adds fields to a form's schema without losing concurrent additions: each field is set only
 * if absent (`if_not_exists`), so two submissions adding different fields both land, and a
 * field a user has edited meanwhile is never overwritten. Many fields are split into updates of
 * at most MAX_EXPRESSION_CHARS each, sent side by side: each is atomic on its own fields, and
 * together they are one round trip of latency.
 */
export async function addFormFields(formId: string, fields: Record<string, FormField>, now: string): Promise<void> {
  const chunks: [string, FormField][][] = [];
  let chars = 0;
  Object.entries(fields).forEach((entry, i) => {
    const clause = `#F.#f${i} = if_not_exists(#F.#f${i}, :f${i}), `.length;
    if (chunks.length === 0 || chars + clause > MAX_EXPRESSION_CHARS) {
      chunks.push([]);
      chars = "SET updatedAt = :now".length;
    }
    chunks.at(-1)?.push(entry);
    chars += clause;
  });
  await Promise.all(chunks.map((chunk) => setFieldsIfAbsent(formId, chunk, now)));
}

async function setFieldsIfAbsent(formId: string, entries: [string, FormField][], now: string): Promise<void> {
  const names: Record<string, string> = { "#F": "fields" };
  const values: Record<string, unknown> = { ":now": now };
  const sets = entries.map(([key, field], i) => {
    names[`#f${i}`] = key;
    values[`:f${i}`] = field;
    return `#F.#f${i} = if_not_exists(#F.#f${i}, :f${i})`;
  });
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.form(formId),
        UpdateExpression: `SET ${sets.join(", ")}, updatedAt = :now`,
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    // A form deleted meanwhile keeps no schema; the submission itself is stored regardless.
    if (isConditionFailure(error)) return;
    // Concurrent additions that each fit (lib/intake/mapping.ts keeps a schema under 256 KB) could
    // together take the item past 400 KB: the form then stops growing, as at its field limit, and
    // the submission is still stored with every key.
    if (isItemTooLarge(error)) {
      log.warn("form schema full: new fields not added", { formId, fields: entries.length });
      return;
    }
    throw error;
  }
}

const isItemTooLarge = (error: unknown) =>
  (error as { name?: string } | null)?.name === "ValidationException" &&
  /item size/i.test((error as { message?: string }).message ?? "");
