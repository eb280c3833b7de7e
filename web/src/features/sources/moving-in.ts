import type { Schema } from "../../api/types";

/**
 * Moving in from another form backend (docs/moving-in.md): for each service, what to change in the form,
 * which of its fields Inlet understands, what must be set again in Inlet, and how the old
 * submissions come along. The one source of these words: the source's "Coming from another
 * service?" panel shows them, and docs/moving-in.md says the same (a unit test,
 * test/standalone/unit/moving-in.test.ts, checks that every field and setting named here is
 * named in that service's section of the document).
 */

/** The services a source's compatibility setting can name (the API's `compatibility.service`). */
export type ServiceId = NonNullable<Schema<"Webhook">["compatibility"]>["service"];

/** An import's file kinds (the import API's `source`). */
export type ImportSource = "formspree" | "basin" | "netlify" | "csv" | "json";

export interface UnderstoodField {
  /** The name as the form posts it. */
  name: string;
  /** What Inlet does with it, in words. */
  meaning: string;
  /** True when it is read only with the source's compatibility set to this service (an unprefixed name). */
  needsSetting?: boolean;
}

export interface Service {
  id: ServiceId;
  name: string;
  /** The form's old target, as the service's docs (or, when unverified, its users) show it. */
  oldAction: string;
  /** What to change in the form, one step a sentence. */
  change: string[];
  fields: UnderstoodField[];
  /** Names Inlet reads and deliberately ignores, and why. */
  ignored: string[];
  /** Settings kept in the service's dashboard, never posted: where each goes in Inlet. */
  reenter: string[];
  /** How the old submissions come along. */
  bringSubmissions: string;
  /** The import's file kind for this service's export. */
  importSource: ImportSource;
  /** What could not be checked against the service's own documentation. */
  unverified: string;
  /** The honeypot name the setting reads when none is given (Contract A); null: none. */
  defaultHoneypot: string | null;
}

/** The underscore names every source reads, whatever its setting (docs/intake.md, "Control fields"). */
const REDIRECT = "where the visitor goes afterwards: an absolute http(s) URL on the site's domain, as `_redirect`";
const SUBJECT = "the notification's subject: one line, length-limited, shown as text";
const REPLY_TO = "the notification's reply-to: one valid address, or none";
const HONEYPOT = "a honeypot: a filled one files the submission in spam, silently";
const CC =
  "carbon copies: picks addresses already among the form's notification recipients, who then get the notification in Cc; any other address is ignored, never mailed, and the submission's metadata counts it";
const EMAIL = "stays an ordinary field; also the notification's reply-to when no reply-to field is sent";
const RELATIVE_NEXT =
  "A `_next` must be an absolute URL on the site's domain; with the setting on, a relative one (`./thank-you.html`) is resolved against the page the form was on.";

export const SERVICES: readonly Service[] = [
  {
    id: "formspree",
    name: "Formspree",
    oldAction: "https://formspree.io/f/<form id>",
    change: [
      "Replace the form's `action` (`https://formspree.io/f/…`) with the source's intake URL, followed by `?key=` and the source's secret.",
      'Keep `method="POST"` and every field as it is: Formspree\'s special fields start with `_`, which Inlet reads on every source.',
      "Turn on the Formspree setting below for a relative `_next` and for `email` as the reply-to.",
      RELATIVE_NEXT,
    ],
    fields: [
      { name: "_next", meaning: REDIRECT },
      { name: "_subject", meaning: SUBJECT },
      { name: "_replyto", meaning: REPLY_TO },
      { name: "_gotcha", meaning: HONEYPOT },
      { name: "_cc", meaning: CC },
      { name: "email", meaning: EMAIL, needsSetting: true },
    ],
    ignored: ["`_format` and `_language`: not stored, no effect"],
    reenter: [
      "the notification emails: the form's Settings → Notification recipients",
      "the autoresponse: the form's Settings → Confirmation email",
      "reCAPTCHA: the site's Settings → Captcha, with keys of your own",
      "plugins (CRM, Slack, webhooks): the form's Webhooks tab",
    ],
    bringSubmissions:
      "Export the form's submissions as CSV or JSON from Formspree, then open the form's Import page in Inlet: the file is recognised as Formspree's, its columns mapped to the form's fields and the original dates kept.",
    importSource: "formspree",
    unverified:
      "Formspree's current Special Fields page was only partly readable; `_format` and `_language` are confirmed only in its 2019 open-source code. Where its CSV export sits in its dashboard, and its exact columns, were not checked.",
    defaultHoneypot: null,
  },
  {
    id: "formsubmit",
    name: "FormSubmit",
    oldAction: "https://formsubmit.co/<your email>",
    change: [
      "Replace the form's `action` (`https://formsubmit.co/you@example.com`) with the source's intake URL, followed by `?key=` and the source's secret.",
      "Your address was in the URL: add it to the form's notification recipients in Inlet instead.",
      "Turn on the FormSubmit setting below if your `_next` is a relative path.",
      RELATIVE_NEXT,
    ],
    fields: [
      { name: "_next", meaning: REDIRECT },
      { name: "_subject", meaning: SUBJECT },
      { name: "_replyto", meaning: REPLY_TO },
      { name: "_honey", meaning: HONEYPOT },
      { name: "_cc", meaning: CC },
    ],
    ignored: [
      "`_captcha`: a form can never turn a protection off",
      "`_autoresponse`: never sent (it would let anyone make Inlet email anyone); use the confirmation email",
      "`_webhook`: never called; use the form's Webhooks tab",
      "`_template` and `_blacklist`: no effect",
    ],
    reenter: [
      "the recipient address from the old URL: the form's Settings → Notification recipients",
      "an autoresponse: the form's Settings → Confirmation email",
    ],
    bringSubmissions:
      "If you have your past submissions as a CSV file with a header row, import it as a plain CSV on the form's Import page; map its time column to keep the original dates.",
    importSource: "csv",
    unverified:
      "FormSubmit's own documentation was not available: its field names come from forms that use it, and whether it offers an export was not checked.",
    defaultHoneypot: null,
  },
  {
    id: "basin",
    name: "Basin",
    oldAction: "https://usebasin.com/f/<form id>",
    change: [
      "Replace the form's `action` (`https://usebasin.com/f/…`) with the source's intake URL, followed by `?key=` and the source's secret.",
      "Remove `data-basin-form` and Basin's script; add a hidden `_gotcha` input as the honeypot.",
      "Basin's captcha tokens only verify with Basin's site keys: set a captcha with keys of your own in the site's settings.",
      "Turn on the Basin setting below for `email` as the reply-to.",
    ],
    fields: [
      { name: "_gotcha", meaning: `${HONEYPOT} (Inlet's; add it to the form)` },
      { name: "email", meaning: EMAIL, needsSetting: true },
    ],
    ignored: ["`source_url` stays an ordinary field (stored with the submission)"],
    reenter: [
      "the redirect: the form's Settings → Redirect after submission",
      "the notification emails and CC/BCC: the form's Settings → Notification recipients",
      "the autoreply: the form's Settings → Confirmation email",
      "spam protection: the site's Settings → Captcha",
    ],
    bringSubmissions:
      "Export the form's submissions as CSV from Basin, then open the form's Import page in Inlet: the file is recognised as Basin's and the original dates kept.",
    importSource: "basin",
    unverified:
      "The name of Basin's own honeypot field and of its Turnstile token were not found in its documentation, nor its export's exact columns.",
    defaultHoneypot: null,
  },
  {
    id: "getform",
    name: "Getform",
    oldAction: "https://getform.io/f/<form id>",
    change: [
      "Replace the form's `action` (`https://getform.io/f/…`) with the source's intake URL, followed by `?key=` and the source's secret.",
      "Keep the fields; `_gotcha` stays the honeypot. The Getform setting changes nothing at intake.",
    ],
    fields: [{ name: "_gotcha", meaning: HONEYPOT }],
    ignored: ["any other `_` name: not stored, no effect"],
    reenter: [
      "the notification emails: the form's Settings → Notification recipients",
      "the redirect: the form's Settings → Redirect after submission",
      "integrations: the form's Webhooks tab",
    ],
    bringSubmissions:
      "Export the submissions as CSV with a header row, then import it as a plain CSV on the form's Import page; map its time column to keep the original dates.",
    importSource: "csv",
    unverified:
      "Getform's own documentation was not available: only `_gotcha` is known, from a secondary source, and its export's columns were not checked.",
    defaultHoneypot: null,
  },
  {
    id: "web3forms",
    name: "Web3Forms",
    oldAction: "https://api.web3forms.com/submit",
    change: [
      "Replace the form's `action` (`https://api.web3forms.com/submit`) with the source's intake URL, without `?key=`.",
      "Put the source's secret in the hidden `access_key` input, in place of the Web3Forms access key.",
      "Turn on the Web3Forms setting below: without it `access_key` is not read as the key, and the post is refused.",
      "A `redirect` must be an absolute URL on the site's domain (Web3Forms' paid plans allowed another domain).",
    ],
    fields: [
      {
        name: "access_key",
        meaning:
          "the source's secret (also under its old name `apikey`): compared in constant time, never stored; a wrong one is refused",
        needsSetting: true,
      },
      { name: "subject", meaning: SUBJECT, needsSetting: true },
      { name: "replyto", meaning: REPLY_TO, needsSetting: true },
      {
        name: "from_name",
        meaning:
          "the notification sender's display name: one line, at most 64 characters, never an address (the address stays Inlet's)",
        needsSetting: true,
      },
      { name: "redirect", meaning: REDIRECT, needsSetting: true },
      { name: "botcheck", meaning: `${HONEYPOT} (a ticked checkbox)`, needsSetting: true },
      { name: "ccemail", meaning: CC, needsSetting: true },
      { name: "email", meaning: EMAIL, needsSetting: true },
      { name: "_cc", meaning: CC },
    ],
    ignored: ["`webhook`: never stored, never called; use the form's Webhooks tab"],
    reenter: [
      "the notification emails: the form's Settings → Notification recipients",
      "the autoresponder: the form's Settings → Confirmation email",
      "restrict to domain: the site's Settings → Domain",
      "hCaptcha or reCAPTCHA: the site's Settings → Captcha, with keys of your own",
    ],
    bringSubmissions:
      "If you have your past submissions as a CSV file with a header row (or a JSON array), import it on the form's Import page as a plain CSV (or JSON); map its time column to keep the original dates.",
    importSource: "csv",
    unverified: "Whether Web3Forms offers an export of past submissions, and in which format, was not checked.",
    defaultHoneypot: "botcheck",
  },
  {
    id: "netlify",
    name: "Netlify Forms",
    oldAction: "(none: Netlify catches the post at build time)",
    change: [
      'Add `action="<intake URL>?key=<secret>"` and `method="POST"` to the form; remove `data-netlify`, `netlify-honeypot` and `data-netlify-recaptcha`.',
      'Add the hidden `form-name` input Netlify used to add for you: `<input type="hidden" name="form-name" value="contact">`.',
      "Turn on the Netlify Forms setting below, and give the honeypot's name if your form's `netlify-honeypot` named another than `bot-field` (the attribute is never posted).",
      "Netlify's success page (the old `action` path) becomes a `_redirect` with an absolute URL on the site's domain, or the form's redirect setting.",
    ],
    fields: [
      {
        name: "form-name",
        meaning: "the name of the form Inlet creates on the first submission, as `_form`",
        needsSetting: true,
      },
      { name: "bot-field", meaning: `${HONEYPOT}; another name can be set below`, needsSetting: true },
      { name: "email", meaning: EMAIL, needsSetting: true },
    ],
    ignored: [
      "`subject` stays an ordinary field (its `%{formName}` variables would show as written)",
      "`g-recaptcha-response` is read only by the site's own captcha",
    ],
    reenter: [
      "the notification emails: the form's Settings → Notification recipients",
      "reCAPTCHA: the site's Settings → Captcha, with keys of your own",
      "the success page: the form's Settings → Redirect after submission",
    ],
    bringSubmissions:
      "Download the form's submissions as CSV from Netlify (or save its submissions API's JSON), then open the form's Import page in Inlet: the file is recognised as Netlify's and the original dates kept.",
    importSource: "netlify",
    unverified: "Netlify's CSV export columns were not checked against a real export.",
    defaultHoneypot: "bot-field",
  },
];

export const serviceById = (id: ServiceId): Service => SERVICES.find((s) => s.id === id) as Service;

const HIDDEN = 'tabindex="-1" autocomplete="off" style="position:absolute;left:-9999px" aria-hidden="true"';

/**
 * A service's minimal example form, moved to Inlet: the action is the source's intake URL, and the
 * key where that service's form keeps it (`?key=`, or Web3Forms' `access_key`).
 */
export function convertedForm(
  service: ServiceId,
  {
    url,
    key,
    honeypotField,
    domain,
  }: { url: string; key: string; honeypotField?: string | null | undefined; domain?: string | null | undefined },
): string {
  // A redirect must be on the site's domain: the example's thank-you page is on it.
  const site = `https://${domain || "www.example.com"}`;
  const action = service === "web3forms" ? url : `${url}?key=${key}`;
  const fields = `  <input type="text" name="name" required>
  <input type="email" name="email" required>
  <textarea name="message" required></textarea>`;
  switch (service) {
    case "formspree":
      return `<form action="${action}" method="POST">
  <input type="text" name="name">
  <input type="email" name="_replyto">
  <textarea name="message"></textarea>
  <input type="hidden" name="_subject" value="New submission">
  <input type="text" name="_gotcha" ${HIDDEN}>
  <button type="submit">Send</button>
</form>`;
    case "formsubmit":
      return `<form action="${action}" method="POST">
${fields}
  <input type="hidden" name="_next" value="${site}/thank-you">
  <input type="text" name="_honey" ${HIDDEN}>
  <button type="submit">Send Message</button>
</form>`;
    case "basin":
    case "getform":
      return `<form accept-charset="UTF-8" action="${action}" method="POST">
${fields}
  <input type="text" name="_gotcha" ${HIDDEN}>
  <button type="submit">Send</button>
</form>`;
    case "web3forms":
      return `<form action="${action}" method="POST">
  <input type="hidden" name="access_key" value="${key}">
${fields}
  <input type="hidden" name="redirect" value="${site}/success">
  <input type="checkbox" name="${honeypotField || "botcheck"}" class="hidden" style="display: none;">
  <button type="submit">Submit Form</button>
</form>`;
    case "netlify":
      return `<form name="contact" action="${action}" method="POST">
  <input type="hidden" name="form-name" value="contact">
  <p class="hidden"><label>Don’t fill this out: <input name="${honeypotField || "bot-field"}"></label></p>
  <p><label>Your Name: <input type="text" name="name" /></label></p>
  <p><label>Your Email: <input type="email" name="email" /></label></p>
  <p><label>Message: <textarea name="message"></textarea></label></p>
  <p><button type="submit">Send</button></p>
</form>`;
  }
}
