import { randomUUID } from "node:crypto";
import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../../../../lib/aws/dynamodb";
import type { Key } from "../../../../lib/store/keys";
import { type Account, api } from "../../../support/api";
import { createHook, type Hook } from "../../../support/submissions";

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
  if (!url) throw new Error("INLET_SES_URL is not set: the jest global setup did not run");
  return url;
};

/** Every email the emulator at `url` holds that was sent to `recipient`. */
export async function emailsTo(recipient: string, url = sesUrl()): Promise<SentEmail[]> {
  const res = await fetch(`${url}/store`);
  if (!res.ok) throw new Error(`SES emulator store: ${res.status}`);
  const { emails } = (await res.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.includes(recipient));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `count` emails were sent to `recipient`, then keeps watching for `settleMs` more
 * and answers all of them: a duplicate arriving late shows up as a longer list.
 */
export async function waitForEmails(
  recipient: string,
  count = 1,
  { timeoutMs = 20_000, settleMs = 2_000, url }: { timeoutMs?: number; settleMs?: number; url?: string } = {},
): Promise<SentEmail[]> {
  const deadline = Date.now() + timeoutMs;
  let emails = await emailsTo(recipient, url);
  while (emails.length < count) {
    if (Date.now() > deadline) {
      throw new Error(`expected ${count} email(s) to ${recipient} within ${timeoutMs} ms, got ${emails.length}`);
    }
    await sleep(100);
    emails = await emailsTo(recipient, url);
  }
  await sleep(settleMs);
  return emailsTo(recipient, url);
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
