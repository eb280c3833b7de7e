import { isPlainAddress } from "../email-address";
import type { RawValue } from "../store/shapes";
import type { CompatService, WebhookCompatibility } from "../store/webhooks";
import type { NormalizedSubmission } from "./fields";

/**
 * The control fields other form backends taught people, without an underscore (docs/intake.md,
 * "Other services' control fields"). An unprefixed name can be a real field of someone's form, so
 * each acts as a control field only on a webhook whose `compatibility` names its service;
 * otherwise it is data, as it always was. Underscore names (`_cc`, `_honey`) are read on every
 * webhook by the collector (./fields.ts) and need nothing here.
 */
export interface CompatControls {
  /** Web3Forms' `access_key` (legacy `apikey`): the webhook's secret, never stored. */
  secret?: string;
  subject?: string;
  redirect?: string;
  replyTo?: string;
  fromName?: string;
  cc?: string;
  /** Netlify's `form-name`: names the auto-created form as `_form` does. */
  formName?: string;
  /** The names of the service's honeypots that were filled, as posted. */
  honeypots: string[];
}

type Role = Exclude<keyof CompatControls, "honeypots"> | "honeypot" | "checkbox" | "drop";

/** Each service's unprefixed control names (lower case; matched in any letter case), and what they are. */
const NAMES: Record<CompatService, Record<string, Role>> = {
  formspree: {},
  formsubmit: {},
  basin: {},
  getform: {},
  web3forms: {
    access_key: "secret",
    apikey: "secret",
    subject: "subject",
    redirect: "redirect",
    replyto: "replyTo",
    from_name: "fromName",
    ccemail: "cc",
    botcheck: "checkbox",
    // "Trigger a webhook": a URL from the body would be a request forgery and an exfiltration
    // channel, and may carry a secret of its own; dropped, never stored, never honoured.
    webhook: "drop",
  },
  netlify: { "form-name": "formName" },
};

/** The honeypot each service names when the setting leaves `honeypotField` null. */
const DEFAULT_HONEYPOT: Partial<Record<CompatService, string>> = { netlify: "bot-field" };

/** Services whose `email` field is the notification's reply-to when no explicit one is sent. */
const EMAIL_REPLIES: ReadonlySet<CompatService> = new Set(["formspree", "basin", "web3forms", "netlify"]);

/**
 * Values an unticked checkbox arrives with from script posts (react-hook-form sends `false`):
 * a `botcheck` of one of these, or blank, is no hit; anything else is.
 */
const UNTICKED = new Set(["", "false", "0", "off"]);

const first = (value: RawValue | undefined) => (Array.isArray(value) ? (value[0] ?? "") : (value ?? ""));

/** A field name as the collector stores it (`a__b` → `a.b`, `x[]` → `x`), lower-cased to match. */
const storedName = (name: string) => {
  const dotted = name.trim().replace(/__/g, ".");
  return (dotted.endsWith("[]") && dotted.length > 2 ? dotted.slice(0, -2) : dotted).toLowerCase();
};

/**
 * Takes the setting's control fields out of the submission's data (they are never stored) and
 * answers what they said. Without a setting, answers nothing and leaves the data untouched.
 */
export function takeCompatControls(
  submission: NormalizedSubmission,
  compatibility: WebhookCompatibility | null | undefined,
): CompatControls {
  const controls: CompatControls = { honeypots: [] };
  if (!compatibility) return controls;
  const names: Record<string, Role> = { ...NAMES[compatibility.service] };
  const honeypot = compatibility.honeypotField ?? DEFAULT_HONEYPOT[compatibility.service];
  if (honeypot) names[storedName(honeypot)] = "honeypot";
  for (const key of Object.keys(submission.data)) {
    const role = names[key.toLowerCase()];
    if (role === undefined) continue;
    const value = first(submission.data[key]);
    delete submission.data[key];
    if (role === "drop") continue;
    if (role === "honeypot" || role === "checkbox") {
      const hit = role === "checkbox" ? !UNTICKED.has(value.trim().toLowerCase()) : value.trim() !== "";
      if (hit) controls.honeypots.push(key);
      continue;
    }
    // The first value wins, as for `_` names (a name sent in two letter cases counts once).
    controls[role] ??= value;
  }
  if (controls.replyTo === undefined && EMAIL_REPLIES.has(compatibility.service)) {
    const email = Object.keys(submission.data).find((key) => key.toLowerCase() === "email");
    const address = email === undefined ? "" : first(submission.data[email]).trim();
    if (isPlainAddress(address)) controls.replyTo = address;
  }
  return controls;
}

/** Services whose `_next` may be a path relative to the page the form was on (their docs' examples use one). */
export const RELATIVE_NEXT: ReadonlySet<CompatService> = new Set(["formspree", "formsubmit"]);

/**
 * What a carbon-copy request (`_cc`, Web3Forms' `ccemail`: addresses separated by `,` or `;`)
 * may pick: only addresses already among the form's notification addresses (`notifyEmails`),
 * compared without regard to letter case, so a stranger can never make Inlet email anyone. `cc`:
 * the picked ones as the form spells them, once each; `ccIgnored`: how many named entries were
 * not on the list (their text is not kept: it may be a stranger's address).
 */
export function carbonCopies(
  requested: readonly (string | undefined)[],
  recipients: readonly string[],
): { cc?: string[]; ccIgnored?: number } {
  const known = new Map(recipients.map((address) => [address.trim().toLowerCase(), address]));
  const cc: string[] = [];
  let ignored = 0;
  for (const entry of requested.flatMap((value) => (value ?? "").split(/[,;]/))) {
    const address = entry.trim();
    if (address === "") continue;
    const listed = known.get(address.toLowerCase());
    if (listed === undefined) ignored++;
    else if (!cc.includes(listed)) cc.push(listed);
  }
  return { ...(cc.length > 0 ? { cc } : {}), ...(ignored > 0 ? { ccIgnored: ignored } : {}) };
}
