/**
 * The ready-to-paste setups a source's page offers, one per kind of sender
 * (docs/intake.md has the contract each one follows).
 */
export interface Snippet {
  id: string;
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
  <input type="text" name="_gotcha" tabindex="-1" autocomplete="off" hidden>
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
      parts: [
        { label: "Webhook URL", value: url },
        { label: "Key", value: key },
      ],
    },
    {
      id: "automation",
      title: "Zapier / Make",
      parts: [
        { label: "POST URL", value: url },
        { label: "Header X-Webhook-Key", value: key },
      ],
    },
  ];
}
