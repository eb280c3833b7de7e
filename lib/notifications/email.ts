import type { EmailContent as NotificationEmail } from "../aws/ses";
import { isPlainAddress } from "../email-address";
import { oneLine, SUBJECT_MAX, senderName } from "../header-text";
import type { Lead } from "../leads";
import type { Form } from "../store/forms";
import type { RawValue } from "../store/shapes";
import type { StoredSubmission } from "../store/submissions";

export type { NotificationEmail };

/**
 * The notification email of one submission (docs/api.md, "Notification email"): pure, so its
 * content is tested without SES. Every submitted value is untrusted: HTML-escaped in the HTML
 * part, and kept out of headers except the validated reply-to address.
 */

export function escapeHtml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

const valuesOf = (value: RawValue) => (Array.isArray(value) ? value : [value]);

/** The submission's fields in the form's order (then any the form does not list), with labels. */
export function labelledFields(submission: Pick<StoredSubmission, "data">, form: Pick<Form, "fields">) {
  const known = Object.entries(form.fields)
    .filter(([key]) => Object.hasOwn(submission.data, key))
    .sort(([ak, a], [bk, b]) => a.order - b.order || (ak < bk ? -1 : ak > bk ? 1 : 0))
    .map(([key, field]) => ({ key, label: field.label || key }));
  const listed = new Set(known.map((f) => f.key));
  const rest = Object.keys(submission.data)
    .filter((key) => !listed.has(key))
    .map((key) => ({ key, label: key }));
  return [...known, ...rest].map((f) => ({ ...f, values: valuesOf(submission.data[f.key] as RawValue) }));
}

const spamLine = (submission: StoredSubmission) =>
  submission.spam.isSpam
    ? `Spam score: ${submission.spam.score}/100 (stored as spam${submission.releasedAt ? `, released by a moderator on ${submission.releasedAt}` : ""})`
    : `Spam score: ${submission.spam.score}/100 (not spam)`;

const leadLine = (lead: Lead) => `Lead: ${lead.grade}, ${lead.score}/100${lead.test ? " (test lead)" : ""}`;

export function notificationEmail(submission: StoredSubmission, form: Form, lead: Lead): NotificationEmail {
  const formName = oneLine(form.name, 200) || "Untitled form";
  const reference = oneLine(submission.referenceId, 100);
  // The submitter's own subject (`_subject`, or a service's under its compatibility), one line.
  const asked = oneLine(submission.metadata?.subject ?? "", SUBJECT_MAX);
  const subject = asked ? `${asked} (${reference})` : `New submission to ${formName} (${reference})`;
  const fromName = senderName(submission.metadata?.fromName ?? "");
  const fields = labelledFields(submission, form);
  const replyTo = submission.metadata?.replyTo?.trim();

  const text = [
    `New submission to ${formName}`,
    `Reference: ${reference}`,
    `Received: ${submission.createdAt}`,
    "",
    ...(fields.length === 0 ? ["(no fields)"] : []),
    ...fields.flatMap(({ label, values }) => {
      const lines = values.join("\n").split(/\r\n|\r|\n/);
      return lines.length === 1 ? [`${label}: ${lines[0]}`] : [`${label}:`, ...lines.map((line) => `  ${line}`)];
    }),
    "",
    spamLine(submission),
    leadLine(lead),
    ...lead.reasons.map((reason) => `  - ${reason}`),
    "",
    `Submission ${submission.id} · form ${form.id}`,
  ].join("\n");

  const cell = "padding:6px 12px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left";
  const rows = fields
    .map(
      ({ label, values }) =>
        `<tr><th style="${cell};white-space:nowrap">${escapeHtml(label)}</th>` +
        `<td style="${cell};white-space:pre-wrap">${values.map(escapeHtml).join("<br>")}</td></tr>`,
    )
    .join("");
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">',
    `<h2 style="margin:0 0 4px">New submission to ${escapeHtml(formName)}</h2>`,
    `<p style="margin:0 0 16px;color:#4b5563">Reference <strong>${escapeHtml(reference)}</strong> · received ${escapeHtml(submission.createdAt)}</p>`,
    `<table style="border-collapse:collapse;margin-bottom:16px">${rows || `<tr><td style="${cell}">(no fields)</td></tr>`}</table>`,
    `<p style="margin:0 0 4px">${escapeHtml(spamLine(submission))}</p>`,
    `<p style="margin:0 0 4px">${escapeHtml(leadLine(lead))}</p>`,
    lead.reasons.length > 0
      ? `<ul style="margin:0 0 16px">${lead.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join("")}</ul>`
      : "",
    `<p style="color:#6b7280;font-size:12px">Submission ${escapeHtml(submission.id)} · form ${escapeHtml(form.id)}</p>`,
    "</body></html>",
  ].join("\n");

  return {
    to: [...form.settings.notifyEmails],
    ...(replyTo && isPlainAddress(replyTo) ? { replyTo } : {}),
    ...(fromName ? { fromName } : {}),
    subject,
    html,
    text,
  };
}

/**
 * The notification's recipients split into To and Cc: the addresses a carbon-copy field picked
 * (`metadata.cc`, always among the form's own notification addresses: lib/intake/compat.ts) move
 * from To to Cc of the same one email, when they are still among `to` (members' choices and
 * suppressions applied). Nobody is added; when every recipient was picked, all stay in To.
 */
export function carbonCopied(to: readonly string[], submission: Pick<StoredSubmission, "metadata">) {
  const picked = new Set((submission.metadata?.cc ?? []).map((address) => address.toLowerCase()));
  const cc = to.filter((address) => picked.has(address.toLowerCase()));
  const rest = to.filter((address) => !picked.has(address.toLowerCase()));
  return cc.length > 0 && rest.length > 0 ? { to: rest, cc } : { to: [...to] };
}
