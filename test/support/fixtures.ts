import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { newId, nowIso } from "../../lib/ids";
import { type Form, formItem, putForm } from "../../lib/store/forms";
import { type Account, api, setPlan } from "./api";

/** A published builder form of `orgId` in `siteId`, as the store keeps it, not written anywhere yet. */
export function formFixture(orgId: string, siteId: string, overrides: Partial<Form> = {}): Form {
  const now = nowIso();
  return {
    id: newId("form"),
    orgId,
    siteId,
    name: "Contact",
    origin: "builder",
    createdByWebhookId: null,
    status: "published",
    fields: { email: { label: "Email", type: "email", required: true, order: 1 } },
    settings: { notifyEmails: [] },
    archivedAt: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
}

/**
 * A builder or auto-created form written straight to the table (the forms API comes later in the
 * suite), counted on its site as the API does. `uncounted`: written as a form stored before sites
 * counted their forms (or a stray one in a site that is not its organization's), site or not.
 */
export async function insertForm(
  account: Account,
  siteId: string,
  overrides: Partial<Form> = {},
  { uncounted = false } = {},
): Promise<Form> {
  const form = formFixture(account.orgId, siteId, overrides);
  if (uncounted) {
    await db().send(new PutCommand({ TableName: tableName(), Item: formItem(form) }));
  } else if ((await putForm(form)) !== "OK") {
    throw new Error(`insertForm: site ${siteId} does not exist`);
  }
  return form;
}

/** Moves the account's organization to Agency and creates an API key with `permissions`. */
export async function apiKeyWith(account: Account, permissions: string[], name = "test key"): Promise<string> {
  await setPlan(account.orgId, "agency");
  const res = await api("POST", "/api/v1/api-keys", { token: account.token, body: { name, permissions } });
  if (res.status !== 200) throw new Error(`API key creation failed: ${res.status} ${res.text}`);
  return res.body.data.key.secretKey as string;
}
