import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "./client";
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

const toForm = (item: Record<string, unknown>): Form => {
  const { pk: _pk, sk: _sk, gsi1pk: _g1, gsi1sk: _g2, type: _t, ...rest } = item;
  // Field keys come from submitted data: rebuild the map without a prototype so a key such as
  // `__proto__` stays an ordinary key.
  const fields = Object.assign(Object.create(null), rest.fields ?? {}) as Record<string, FormField>;
  return { ...(rest as unknown as Form), fields };
};

export async function getForm(formId: string): Promise<Form | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.form(formId) }));
  return out.Item ? toForm(out.Item) : undefined;
}

export async function putForm(form: Form): Promise<void> {
  await db().send(
    new PutCommand({ TableName: tableName(), Item: formItem(form), ConditionExpression: "attribute_not_exists(pk)" }),
  );
}
