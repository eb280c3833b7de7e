import type { SourceKind } from "./queries";

/**
 * The ready-to-paste setups a source's page offers, one per kind of sender
 * (docs/intake.md has the contract each one follows).
 */
export type SnippetId = "html" | "fetch" | "curl" | "ads" | "automation";

export interface Snippet {
  id: SnippetId;
  title: string;
  /** Each value is shown in its own copyable box. */
  parts: { label: string; value: string; multiline?: boolean }[];
}

/** Shown instead of the secret once it is no longer known (it is shown only at creation and rotation). */
export const SECRET_PLACEHOLDER = "YOUR_WEBHOOK_SECRET";

export function snippetsFor(url: string, secret: string | undefined, domain: string | null | undefined): Snippet[] {
  const key = secret ?? SECRET_PLACEHOLDER;
  const thanks = `https://${domain ?? "example.com"}/thanks`;
  const html = `<form action="${url}?key=${key}" method="POST">
  <label>Name <input name="name" autocomplete="name" required></label>
  <label>Email <input type="email" name="email" autocomplete="email" required></label>
  <label>Message <textarea name="message"></textarea></label>
  <!-- Spam trap: hidden from people; bots that fill it are flagged. -->
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" style="position:absolute;left:-9999px" aria-hidden="true">
  <!-- Optional: where to send the visitor afterwards (on your site's domain). -->
  <input type="hidden" name="_redirect" value="${thanks}">
  <button type="submit">Send</button>
</form>`;
  const fetchCall = `const response = await fetch("${url}", {
  method: "POST",
  headers: { "Content-Type": "application/json", "X-Webhook-Key": "${key}" },
  body: JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com", message: "Hello" }),
});
const { referenceId } = await response.json();`;
  const curl = `curl -X POST '${url}' \\
  -H 'X-Webhook-Key: ${key}' \\
  -H 'Content-Type: application/json' \\
  -d '{"name":"Ada Lovelace","email":"ada@example.com","message":"Hello"}'`;
  return [
    { id: "html", title: "HTML form", parts: [{ label: "HTML form", value: html, multiline: true }] },
    { id: "fetch", title: "fetch()", parts: [{ label: "JavaScript fetch call", value: fetchCall, multiline: true }] },
    { id: "curl", title: "curl", parts: [{ label: "curl command", value: curl, multiline: true }] },
    {
      id: "ads",
      title: "Google Ads lead form",
      // The two values of the lead form's webhook integration; Google sends the key as `google_key`.
      parts: [
        { label: "Webhook URL", value: url },
        { label: "Key", value: key },
      ],
    },
    {
      id: "automation",
      title: "Zapier / Make",
      // The fields of a "Webhooks by Zapier: POST" step (Make's HTTP module asks the same).
      parts: [
        { label: "URL", value: url },
        { label: "Payload type", value: "json" },
        { label: "Header name", value: "X-Webhook-Key" },
        { label: "Header value", value: key },
      ],
    },
  ];
}

/** The setup a source's kind needs first (the others stay one tab away). */
export const SNIPPET_FOR_KIND: Record<SourceKind, SnippetId> = {
  generic: "html",
  partner_ads: "ads",
  partner_automation: "automation",
};
