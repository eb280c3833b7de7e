import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db, isConditionFailure, tableName } from "../aws/dynamodb";
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

export interface FormSettings {
  notifyEmails: string[];
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
  archivedAt: string | null;
  /** Set when the form is being purged: it is gone for every reader from then on. */
  deletedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

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

export async function putForm(form: Form): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: formItem(form), ConditionExpression: "attribute_not_exists(pk)" }),
  );
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
          { Put: { TableName, Item: formItem(form), ConditionExpression: "attribute_not_exists(pk)" } },
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
      }),
    );
    return "CREATED";
  } catch (error) {
    if (cancellationReasons(error)?.[1] === "ConditionalCheckFailed") return "LINKED_ELSEWHERE";
    throw error;
  }
}

/**
 * Adds fields to a form's schema without losing concurrent additions: each field is set only
 * if absent (`if_not_exists`), so two submissions adding different fields both land, and a
 * field a user has edited meanwhile is never overwritten.
 */
export async function addFormFields(formId: string, fields: Record<string, FormField>, now: string): Promise<void> {
  const entries = Object.entries(fields);
  if (entries.length === 0) return;
  const names: Record<string, string> = { "#fields": "fields" };
  const values: Record<string, unknown> = { ":now": now };
  const sets = entries.map(([key, field], i) => {
    names[`#f${i}`] = key;
    values[`:f${i}`] = field;
    return `#fields.#f${i} = if_not_exists(#fields.#f${i}, :f${i})`;
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
    if (!isConditionFailure(error)) throw error;
  }
}
