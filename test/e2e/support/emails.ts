import type { APIRequestContext } from "@playwright/test";
import { type EmailOf, type EventOptions, putSesEvent, type SesEventType } from "../../support/ses-events";
import { type Account, apiAs, expect } from "./fixtures";
import { stack } from "./inbox";

/**
 * Helpers of the emails spec: a site with a domain and a form that notifies and confirms, the
 * emails the stack's SES emulator holds, and SES's events put on the stack's EventBridge
 * stand-in (test/support/ses-events.ts), as SES would send them about those emails.
 */

/** A site on example.com, a form notifying `notify` and confirming to submitters, and a browser source feeding it. */
export async function confirmingForm(request: APIRequestContext, account: Account, notify: string) {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", {
    name: "Shop",
    domain: "example.com",
  });
  const { form } = await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${site.id}/forms`, {
    name: "Contact",
    status: "published",
    fields: [
      { key: "name", label: "Name", type: "name" },
      { key: "email", label: "Email", type: "email" },
      { key: "message", label: "Message", type: "textarea" },
    ],
    settings: { notifyEmails: [notify], confirmation: { enabled: true, subject: "Thanks {name} ({reference})" } },
  });
  const hook = await apiAs<{ webhookUrl: string; secretKey: string }>(
    request,
    account,
    "POST",
    `/api/v1/sites/${site.id}/webhooks`,
    {
      name: "Contact form",
      formId: form.id,
    },
  );
  return { siteId: site.id, formId: form.id, source: { url: hook.webhookUrl, secret: hook.secretKey } };
}

/** The message id of the one email the SES emulator holds for `to`, once it holds it. */
export async function messageIdTo(to: string): Promise<string> {
  let id: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await fetch(`${stack().sesEndpoint}/store`);
        const { emails } = (await res.json()) as { emails: { messageId: string; destination: { to: string[] } }[] };
        id = emails.find((e) => e.destination.to.includes(to))?.messageId;
        return id;
      },
      { timeout: 20_000 },
    )
    .toBeTruthy();
  return id as string;
}

/** Puts one SES event about an email on the stack's bus, and waits until it was recorded. */
export async function sesEvent(type: SesEventType, email: Omit<EmailOf, "configurationSet">, options?: EventOptions) {
  const info = stack();
  const answer = await putSesEvent(
    type,
    { ...email, configurationSet: info.sesConfigurationSet },
    options,
    info.eventBusEndpoint,
  );
  expect(answer.FailedEntryCount).toBe(0);
}
