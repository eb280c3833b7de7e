import { randomUUID } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../../lib/aws/dynamodb";
import type { Key } from "../../../../lib/store/keys";
import { type Account, api } from "../../../support/api";
import { eventually } from "../../../support/eventually";
import { createHook, type Hook } from "../../../support/submissions";
import { pipelineBarrier } from "./barrier";

/** An email as the SES emulator (aws-ses-v2-local) keeps it at `GET /store`. */
export interface SentEmail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

export const sesUrl = () => {
  const url = process.env.INLET_SES_URL;
  if (!url)
    throw new Error("INLET_SES_URL is not set: the local stack was not started (tests that need it live in test/local-stack)");
  return url;
};

/** Every email the emulator at `url` holds that was sent to `recipient`. */
export async function emailsTo(recipient: string, url = sesUrl()): Promise<SentEmail[]> {
  const res = await fetch(`${url}/store`);
  if (!res.ok) throw new Error(`SES emulator store: ${res.status}`);
  const { emails } = (await res.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.includes(recipient));
}

/**
 * Waits until `count` emails were sent to `recipient`, then (unless `settle` is false) until the
 * test stack's pipeline has handled everything it had to do (./barrier.ts), and answers all of
 * them: a duplicate on its way shows up as a longer list.
 */
export async function waitForEmails(
  recipient: string,
  count = 1,
  { timeoutMs = 20_000, settle = true }: { timeoutMs?: number; settle?: boolean } = {},
): Promise<SentEmail[]> {
  await eventually(`${count} email(s) to ${recipient}`, async () => (await emailsTo(recipient)).length >= count, { timeoutMs });
  if (settle) await pipelineBarrier();
  return emailsTo(recipient);
}

/** A fresh recipient address: each test counts only its own emails. */
export const recipient = (label = "notify") => `${label}-${randomUUID()}@example.com`;

export const FIELDS = [
  { key: "name", label: "Full name", type: "name", required: true },
  { key: "email", label: "Email", type: "email", required: true },
  { key: "phone", label: "Phone", type: "phone" },
  { key: "company", label: "Company", type: "text" },
  { key: "message", label: "Message", type: "textarea" },
];

/** A builder form notifying `notifyEmails`, fed by a new server-to-server webhook (not spam-prone). */
export async function notifyingForm(
  owner: Account,
  siteId: string,
  notifyEmails: string[],
  name = "Quote <request> & more",
): Promise<{ formId: string; hook: Hook }> {
  const res = await api("POST", `/api/v1/sites/${siteId}/forms`, {
    token: owner.token,
    body: { name, fields: FIELDS, settings: { notifyEmails } },
  });
  if (res.status !== 201) throw new Error(`form creation failed: ${res.status} ${res.text}`);
  const formId = res.body.data.form.id as string;
  return { formId, hook: await createHook(owner, siteId, { formId }) };
}

/** A lead the rules grade hot: business email, phone, company, long message, name (85 points). */
export const HOT_LEAD = {
  name: "Ada <b>Lovelace</b>",
  email: "ada@analytical-engines.example.com",
  phone: "+1 650 555 0123",
  company: "Analytical Engines & Sons",
  message: 'Please quote 40 engines. <script>alert("x")</script> We need them before the end of the quarter.',
};

/** An item as stored, keys and type included (strongly consistent). */
export async function rawItem(key: Key): Promise<Record<string, any> | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}
