import { looksLikeEmail } from "../../email-address";
import type { Form } from "../../store/forms";
import type { ChatOptions, OutboundEndpoint } from "../../store/outbound-endpoints";
import type { Lead, RawValue } from "../../store/shapes";
import type { StoredSubmission } from "../../store/submissions";

/**
 * What a chat destination's message says, before any platform's format (./slack.ts, ./teams.ts,
 * ./discord.ts, ./google-chat.ts build it): a headline with the form and the lead's grade, the
 * submitter's name and email when present, some fields, the reference and a link to the
 * submission in the dashboard (docs/notifications.md). Every text here is raw (unescaped):
 * each platform escapes it for its own markup. Values are cut to VALUE_MAX before that, so
 * no escaping regex ever runs over a 10 KB value and no message starts out huge.
 */

export interface LeadMessage {
  /** "New hot lead" / "Test message": fixed words, never user text. */
  title: string;
  formName: string;
  grade: Lead["grade"] | null;
  score: number | null;
  /** Null when the destination sends no field values (docs/notifications.md, "Filters"). */
  submitter: { name: string | null; email: string | null } | null;
  fields: { label: string; value: string }[];
  /** Fields of the submission not in `fields` (the limit, or what the platform's size allowed). */
  omitted: number;
  reference: string | null;
  /** The submission in the dashboard (a test message: the form's destinations page). */
  link: string;
  linkLabel: string;
  /**
   * The line under the headline: fixed words saying what this message is, or (a
   * `submission.updated` message) the change's summary, which names members and tags: raw text
   * that each platform escapes like every other.
   */
  note: string | null;
}

/** A value in a chat message: more is never useful there, and the link shows everything. */
export const VALUE_MAX = 1000;
/** Field labels come from the form or, for unlisted fields, from the submitted keys (≤ 100 characters at intake). */
export const LABEL_MAX = 100;
export const FORM_NAME_MAX = 100;
/** The most fields a destination may ask for (Discord's embed takes 25 fields: docs/notifications.md). */
export const MAX_FIELDS_LIMIT = 25;
export const DEFAULT_CHAT_OPTIONS: ChatOptions = { minGrade: null, includeFieldValues: true, maxFields: 10 };

/**
 * `text` cut to at most `max` UTF-16 code units, "…" included, never splitting a surrogate
 * pair. UTF-16 units are never fewer than code points, so a text within `max` here is within a
 * limit counted in characters by any platform.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** Control characters (other than newlines and tabs) become spaces: no platform shows them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g;
export const clean = (text: string) => text.replace(CONTROL, " ");
const oneLine = (text: string) => clean(text).replace(/\s+/g, " ").trim();

const valueText = (value: RawValue) => (Array.isArray(value) ? value.join(", ") : value);

/** The submission's keys in the form's order, then those the form does not list, with their labels. */
function orderedKeys(data: StoredSubmission["data"], form: Pick<Form, "fields">): { key: string; label: string }[] {
  const listed = Object.entries(form.fields)
    .filter(([key]) => Object.hasOwn(data, key))
    .sort(([a, x], [b, y]) => x.order - y.order || (a < b ? -1 : 1))
    .map(([key, field]) => ({ key, label: field.label || key }));
  const known = new Set(listed.map((f) => f.key));
  return [...listed, ...Object.keys(data).flatMap((key) => (known.has(key) ? [] : [{ key, label: key }]))];
}

const NAME_KEY = /^(full[-_ ]?|your[-_ ]?|contact[-_ ]?)?name$/i;
const FIRST_KEY = /^(first[-_ ]?name|given[-_ ]?name|fname)$/i;
const LAST_KEY = /^(last[-_ ]?name|family[-_ ]?name|surname|lname)$/i;
const EMAIL_KEY = /^(e-?mail|e-?mail[-_ ]?address|your[-_ ]?e-?mail)$/i;

/**
 * Who filled the form, and which fields said so (left out of the field list): a field typed
 * `name` or named like one (else first and last name together), and the reply-to address
 * intake recorded, else a field typed `email` or named like one that holds an address.
 */
function submitterOf(submission: StoredSubmission, form: Pick<Form, "fields">) {
  const data = submission.data;
  const typed = (type: string, pattern: RegExp) =>
    Object.keys(data).find((key) => form.fields[key]?.type === type || pattern.test(key));
  const first = (key: string | undefined) => (key === undefined ? "" : oneLine(valueText(data[key] as RawValue)));
  const used = new Set<string>();
  const nameKey = typed("name", NAME_KEY);
  let name = first(nameKey);
  if (name && nameKey) used.add(nameKey);
  else {
    const parts = [Object.keys(data).find((k) => FIRST_KEY.test(k)), Object.keys(data).find((k) => LAST_KEY.test(k))];
    name = parts.map(first).filter(Boolean).join(" ");
    for (const key of parts) if (key && first(key)) used.add(key);
  }
  const emailKey = typed("email", EMAIL_KEY);
  const fieldEmail = first(emailKey);
  const email = [submission.metadata?.replyTo ?? "", fieldEmail].map((e) => e.trim()).find(looksLikeEmail) ?? null;
  if (emailKey && fieldEmail && looksLikeEmail(fieldEmail)) used.add(emailKey);
  return { name: name ? clip(name, LABEL_MAX * 2) : null, email: email ? clip(email, 254) : null, used };
}

const GRADE_WORDS = { hot: "hot", warm: "warm", cold: "cold" } as const;

export function leadMessage(
  submission: StoredSubmission,
  form: Pick<Form, "name" | "fields">,
  lead: Lead | null,
  options: ChatOptions,
  baseUrl: string,
): LeadMessage {
  const formName = clip(oneLine(form.name), FORM_NAME_MAX) || "Untitled form";
  const grade = lead?.grade ?? null;
  const base: Omit<LeadMessage, "submitter" | "fields" | "omitted"> = {
    title: grade ? `New ${GRADE_WORDS[grade]} lead${lead?.test ? " (test lead)" : ""}` : "New submission",
    formName,
    grade,
    score: lead?.score ?? null,
    reference: clip(oneLine(submission.referenceId), 100),
    link: `${baseUrl.replace(/\/+$/, "")}/submissions/${encodeURIComponent(submission.id)}`,
    linkLabel: "Open the submission",
    note: null,
  };
  if (!options.includeFieldValues) {
    return { ...base, submitter: null, fields: [], omitted: 0, note: "Field values are not sent to this channel." };
  }
  const who = submitterOf(submission, form);
  const rest = orderedKeys(submission.data, form).filter(({ key }) => !who.used.has(key));
  const fields = rest.slice(0, options.maxFields).map(({ key, label }) => ({
    label: clip(oneLine(label), LABEL_MAX) || "(unnamed)",
    value: clip(clean(valueText(submission.data[key] as RawValue)).trim(), VALUE_MAX) || "(empty)",
  }));
  return {
    ...base,
    submitter: { name: who.name, email: who.email },
    fields,
    omitted: rest.length - fields.length,
  };
}

/** How long a change's summary may be in a message (names of at most 20 tags and two members). */
export const SUMMARY_MAX = 600;

/**
 * A `submission.updated` message: "Lead updated" with the form's name, then the reference and
 * what changed ("R-0042: new → contacted · owner: Ana — by Ben", lib/outbound/triage.ts) and
 * the submission's link. It lists no fields (the created message did); the submitter's name
 * and email only when the destination sends field values (docs/notifications.md).
 */
export function changeMessage(
  submission: StoredSubmission,
  form: Pick<Form, "name" | "fields">,
  lead: Lead | null,
  options: ChatOptions,
  baseUrl: string,
  summary: string,
): LeadMessage {
  const message = leadMessage(submission, form, lead, { ...options, maxFields: 0 }, baseUrl);
  const reference = message.reference ? `${message.reference}: ` : "";
  return {
    ...message,
    title: "Lead updated",
    fields: [],
    omitted: 0,
    note: clip(`${reference}${oneLine(summary)}`, SUMMARY_MAX),
  };
}

/** "Send test message": what a destination shows to prove it works, with no lead in it. */
export function testMessage(endpoint: Pick<OutboundEndpoint, "formId">, form: Pick<Form, "name"> | undefined, baseUrl: string) {
  return {
    title: "Test message from Inlet",
    formName: clip(oneLine(form?.name ?? ""), FORM_NAME_MAX) || "Untitled form",
    grade: null,
    score: null,
    submitter: null,
    fields: [],
    omitted: 0,
    reference: null,
    link: `${baseUrl.replace(/\/+$/, "")}/forms/${encodeURIComponent(endpoint.formId)}/webhooks`,
    linkLabel: "Open the form's destinations",
    note: "This channel will receive the form's new leads.",
  } satisfies LeadMessage;
}

/** "and 3 more fields" (a count, fixed words). */
export const omittedWords = (n: number) =>
  `…and ${n} more field${n === 1 ? "" : "s"}: open the submission to see ${n === 1 ? "it" : "them"}.`;

/**
 * Keeps the fields that fit: `size(fields, omitted)` measures the whole message as the platform
 * counts it; fields are dropped from the end until it is within `budget`. Linear in practice:
 * fields arrive cut to VALUE_MAX, so a few drops settle it.
 */
export function fitFields(message: LeadMessage, budget: number, size: (message: LeadMessage) => number): LeadMessage {
  let fitted = message;
  while (fitted.fields.length > 0 && size(fitted) > budget) {
    // Drop about a tenth at a time, at least one: 25 fields settle in a few rounds.
    const drop = Math.max(1, Math.floor(fitted.fields.length / 10));
    fitted = { ...fitted, fields: fitted.fields.slice(0, -drop), omitted: fitted.omitted + drop };
  }
  return fitted;
}
