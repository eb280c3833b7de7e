import type { EmailContent } from "../aws/ses";
import { isPlainAddress, looksLikeEmail } from "../email-address";
import { flatLine } from "../header-text";
import type { ConfirmationSettings, Form } from "../store/forms";
import type { RawValue } from "../store/shapes";
import type { StoredSubmission } from "../store/submissions";
import { escapeHtml } from "./email";

/**
 * The confirmation email to the person who filled a form (docs/email.md, "Confirmation emails"):
 * pure, so its content and its refusals are tested without SES. The form's owner writes the
 * subject and the message; the only submitted text the email carries is the three placeholders'
 * values: `{name}` (checked to look like a name, or left empty), `{reference}` (Inlet's own) and
 * `{form}` (the form's name), each flattened to one line and escaped where it lands.
 */

export const CONFIRMATION_LIMITS = { subject: 200, message: 2000, senderName: 64, name: 60 } as const;

/** What a form that never saved its confirmation settings has: off, with a subject and message to start from. */
export const DEFAULT_CONFIRMATION: ConfirmationSettings = {
  enabled: false,
  subject: "We received your message ({reference})",
  message:
    "Hi {name},\n\nthank you for contacting us through {form}. We will get back to you soon.\n\nYour reference: {reference}",
  senderName: null,
  replyTo: null,
};

export const confirmationOf = (form: Pick<Form, "settings">): ConfirmationSettings => ({
  ...DEFAULT_CONFIRMATION,
  ...form.settings?.confirmation,
});

const firstText = (value: RawValue | undefined) => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

/** The form's keys of `type` in its order, then the submission's other keys that `key` names. */
function candidates(submission: Pick<StoredSubmission, "data">, form: Pick<Form, "fields">, type: string, key: RegExp) {
  const typed = Object.entries(form.fields)
    .filter(([, f]) => f.type === type)
    .sort(([ak, a], [bk, b]) => a.order - b.order || (ak < bk ? -1 : 1))
    .map(([k]) => k);
  const named = Object.keys(submission.data).filter((k) => key.test(k) && !typed.includes(k));
  return [...typed, ...named].map((k) => firstText(submission.data[k])).filter(Boolean);
}

/**
 * The address a confirmation goes to, lower-cased: the submission's `_replyto` when it is a plain
 * address, else the first plain address of its email fields (the form's email-typed fields in
 * order, then a key such as `email`). Undefined when there is none.
 */
export function submitterAddress(
  submission: Pick<StoredSubmission, "data" | "metadata">,
  form: Pick<Form, "fields">,
): string | undefined {
  const found = [
    submission.metadata?.replyTo?.trim() ?? "",
    ...candidates(submission, form, "email", /^e-?mail(_?address)?$/i),
  ].find((text) => looksLikeEmail(text) && isPlainAddress(text));
  return found?.toLowerCase();
}

/**
 * What a name must not look like to fill `{name}`: a link or an address (a stranger's inbox must
 * not receive someone's advertisement under a form's name), markup, or a long text.
 */
const NOT_A_NAME = /[<>"@/\\:]|www\.|[a-z0-9-]+\.[a-z]{2,}/i;

/** The submitter's name for `{name}`: the first name field's value if it looks like a name, else "". */
export function submitterName(submission: Pick<StoredSubmission, "data">, form: Pick<Form, "fields">): string {
  const [first] = candidates(submission, form, "name", /^(your[-_ ]?)?(full[-_ ]?|first[-_ ]?)?name$/i);
  const name = flatLine(first ?? "");
  return name.length > CONFIRMATION_LIMITS.name || NOT_A_NAME.test(name) ? "" : name;
}

/** Whether a recorded Referer is a page of `domain` or of one of its subdomains (http or https). */
export function cameFrom(referer: string | null | undefined, domain: string): boolean {
  if (!referer) return false;
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  const site = domain.toLowerCase();
  return (url.protocol === "https:" || url.protocol === "http:") && (host === site || host.endsWith(`.${site}`));
}

export interface ConfirmationValues {
  name: string;
  reference: string;
  form: string;
}

/**
 * The placeholders filled in. An empty `{name}` takes the space before it along ("Hi {name}," →
 * "Hi,"). Other braces are the owner's text, left as written.
 */
export function fillPlaceholders(template: string, values: ConfirmationValues): string {
  return (
    template
      .replace(/( ?)\{name\}/g, (_, space: string) => (values.name ? `${space}${values.name}` : ""))
      // Functions, not strings: a value's `$&` or `$'` is text, never a replacement pattern.
      .replaceAll("{reference}", () => values.reference)
      .replaceAll("{form}", () => values.form)
  );
}

/** The values of a submission's placeholders. */
export function placeholderValues(
  submission: Pick<StoredSubmission, "data" | "referenceId">,
  form: Pick<Form, "fields" | "name">,
) {
  return {
    name: submitterName(submission, form),
    reference: flatLine(submission.referenceId),
    form: flatLine(form.name).slice(0, 200) || "our form",
  } satisfies ConfirmationValues;
}

/**
 * The email: the owner's subject and message with the placeholders filled, a line saying why the
 * address received it, `Auto-Submitted: auto-generated` (RFC 3834: an automatic message, not a
 * reply, so auto-responders stay quiet), the sender name and reply-to of the settings.
 */
export function confirmationEmail(
  settings: ConfirmationSettings,
  values: ConfirmationValues,
  to: string,
  siteDomain: string,
): EmailContent {
  const subject = flatLine(fillPlaceholders(settings.subject, values)).slice(0, CONFIRMATION_LIMITS.subject);
  const message = fillPlaceholders(settings.message, values).replace(/\r\n?/g, "\n");
  const why = `You receive this email because this address was entered in the form "${values.form}" on ${siteDomain}. If that was not you, ignore it: nothing else will be sent to you about it.`;
  const paragraphs = message
    .split(/\n{2,}/)
    .map((p) => `<p style="margin:0 0 12px">${escapeHtml(p).replaceAll("\n", "<br>")}</p>`);
  return {
    to: [to],
    ...(settings.replyTo ? { replyTo: settings.replyTo } : {}),
    ...(settings.senderName ? { fromName: settings.senderName } : {}),
    headers: { "Auto-Submitted": "auto-generated" },
    subject,
    text: `${message}\n\n--\n${why}\n`,
    html: [
      "<!doctype html>",
      '<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">',
      ...paragraphs,
      `<p style="margin:24px 0 0;color:#6b7280;font-size:12px">${escapeHtml(why)}</p>`,
      "</body></html>",
    ].join("\n"),
  };
}
