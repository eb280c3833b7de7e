import { BatchWriteCommand, GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../lib/aws/dynamodb";
import { newId } from "../../lib/ids";
import type { Form } from "../../lib/store/forms";
import { keys } from "../../lib/store/keys";
import { type Submission, submissionItem } from "../../lib/store/submissions";
import { type Account, api } from "./api";

/** Helpers of the forms, submissions and export tests. */

export interface Hook {
  id: string;
  secretKey: string;
}

/**
 * A webhook through the API. `partner_automation` by default: a server-to-server source, so the
 * browser spam signals (no Referer, Node's user agent, many posts from one IP) do not make the
 * tests' submissions spam.
 */
export async function createHook(account: Account, siteId: string, body: Record<string, unknown> = {}): Promise<Hook> {
  const res = await api("POST", `/api/v1/sites/${siteId}/webhooks`, {
    token: account.token,
    body: { name: "Contact", source: "partner_automation", ...body },
  });
  if (res.status !== 201) throw new Error(`webhook creation failed: ${res.status} ${res.text}`);
  return { id: res.body.data.id, secretKey: res.body.data.secretKey };
}

/** One submission through the real intake endpoint (JSON body); answers its id and reference. */
export async function submitTo(
  hook: Hook,
  data: Record<string, unknown>,
): Promise<{ submissionId: string; referenceId: string }> {
  const res = await api("POST", `/api/v1/incoming/${hook.id}?key=${encodeURIComponent(hook.secretKey)}`, { body: data });
  if (res.status !== 200) throw new Error(`intake failed: ${res.status} ${res.text}`);
  return { submissionId: res.body.submissionId, referenceId: res.body.referenceId };
}

/** The form a webhook feeds (intake links it on the first submission). */
export async function formOfHook(account: Account, siteId: string, hook: Hook): Promise<string> {
  const res = await api("GET", `/api/v1/sites/${siteId}/webhooks/${hook.id}`, { token: account.token });
  if (!res.body.data?.formId) throw new Error(`webhook has no form: ${res.text}`);
  return res.body.data.formId as string;
}

let sequence = 0;

/** A submission of `form` as intake would store it, written by `putSubmissions`. */
export function makeSubmission(form: Pick<Form, "id" | "orgId" | "siteId">, overrides: Partial<Submission> = {}): Submission {
  sequence += 1;
  return {
    id: newId("submission"),
    orgId: form.orgId,
    siteId: form.siteId,
    formId: form.id,
    webhookId: "wh_test",
    referenceId: `TEST-${sequence}`,
    data: {},
    metadata: { source: "generic", userAgent: null, referer: null, ip: "203.0.113.9", droppedFiles: [], ignoredFields: [] },
    spam: { score: 0, isSpam: false, signals: [] },
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

/** Writes submissions straight to the table, 25 per BatchWriteItem, 16 batches in flight. */
export async function putSubmissions(submissions: Submission[]): Promise<void> {
  const TableName = tableName();
  const chunks: Submission[][] = [];
  for (let i = 0; i < submissions.length; i += 25) chunks.push(submissions.slice(i, i + 25));
  const write = async (chunk: Submission[]) => {
    let pending: Record<string, unknown>[] = chunk.map((s) => ({ PutRequest: { Item: submissionItem(s) } }));
    while (pending.length > 0) {
      const out = await db().send(new BatchWriteCommand({ RequestItems: { [TableName]: pending as never } }));
      pending = (out.UnprocessedItems?.[TableName] ?? []) as Record<string, unknown>[];
    }
  };
  for (let i = 0; i < chunks.length; i += 16) await Promise.all(chunks.slice(i, i + 16).map(write));
}

/** The stored submission item, straight from the table. */
export async function storedItem(submissionId: string): Promise<Record<string, any> | undefined> {
  const out = await db().send(
    new GetCommand({ TableName: tableName(), Key: keys.submission(submissionId), ConsistentRead: true }),
  );
  return out.Item;
}

/** A generic source's metadata with a `_replyto` address (erasure and access requests match it). */
export const replyToMetadata = (replyTo: string): Submission["metadata"] => ({
  source: "generic",
  userAgent: null,
  referer: null,
  ip: "1.2.3.4",
  droppedFiles: [],
  ignoredFields: [],
  replyTo,
});

/** ISO timestamp `minutesAgo` minutes before now. */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
