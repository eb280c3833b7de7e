import { randomUUID } from "node:crypto";
import { type Account, api, createSite, signupOwner } from "../../../support/api";
import { newWebhook, type TestWebhook } from "../../../support/intake";

/** What the chat destination and submission.updated pipeline tests send to: an owner's builder form and its intake webhook. */
export interface LeadForm {
  owner: Account;
  siteId: string;
  formId: string;
  webhook: TestWebhook;
}

const LEAD_FIELDS = [
  { key: "name", label: "Name", type: "name" },
  { key: "email", label: "Email", type: "email" },
  { key: "message", label: "Message", type: "textarea" },
];

/**
 * An owner (named `Test <label>`), a site, a published form (by default "Contact", with name,
 * email and message fields), and a server-to-server webhook feeding it: the browser-only spam
 * signals (request rate per IP, user agent) would flag many submissions from 127.0.0.1 as spam,
 * which is never sent.
 */
export async function leadForm(
  label: string,
  { name = "Contact", fields = LEAD_FIELDS }: { name?: string; fields?: unknown[] } = {},
): Promise<LeadForm> {
  const owner = await signupOwner(label);
  const siteId = await createSite(owner, `${label} site`);
  const form = await api("POST", `/api/v1/sites/${siteId}/forms`, {
    token: owner.token,
    body: { name, status: "published", fields },
  });
  if (form.status !== 201) throw new Error(`form creation failed: ${form.status} ${form.text}`);
  const formId = form.body.data.form.id as string;
  return {
    owner,
    siteId,
    formId,
    webhook: await newWebhook(owner, siteId, { name: "Contact", formId, source: "partner_automation" }),
  };
}

/** A hot lead: business address, phone, company, a long message. */
export const hotLead = (extra: Record<string, string> = {}) => {
  const unique = randomUUID();
  return {
    name: "Ada Lovelace",
    email: `ada.${unique}@analytical-engines.com`,
    phone: "+44 20 7946 0958",
    company: "Analytical Engines",
    message: `Please call me about order ${unique}, we need forty engines by spring.`,
    ...extra,
  };
};
