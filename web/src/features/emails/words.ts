import type { ConfirmationState, Fate, SuppressedRecipient } from "./queries";

/** An email's fate for one recipient, in words (never colour alone: docs/dashboard.md, quality bars). */
export const FATE_LABELS: Record<Fate, string> = {
  sent: "Sent",
  delayed: "Delayed",
  delivered: "Delivered",
  bounced: "Bounced",
  rejected: "Rejected",
  complained: "Marked as spam",
};

/** What each fate means for the person reading the page. */
export const FATE_HINTS: Record<Fate, string> = {
  sent: "SES accepted it; no answer from the receiving server yet.",
  delayed: "The receiving server asked to try later; SES keeps trying.",
  delivered: "The receiving server accepted it.",
  bounced: "The receiving server refused it.",
  rejected: "SES refused to send it.",
  complained: "The recipient reported it as spam.",
};

const neutral = "border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100";
const warning = "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100";
const good =
  "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100";
const bad = "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100";

/** The badge beside the fate's word: the word carries the meaning, the colour only repeats it. */
export const FATE_BADGE: Record<Fate, string> = {
  sent: neutral,
  delayed: warning,
  delivered: good,
  bounced: bad,
  rejected: bad,
  complained: bad,
};

export const KIND_LABELS: Record<string, string> = {
  notification: "Notification",
  confirmation: "Confirmation to the submitter",
};

type NotSentReason = Extract<ConfirmationState, { status: "not-sent" }>["reason"];

/** Why a submission got no confirmation: the rule that said no (docs/email.md, "The rules"). */
export const CONFIRMATION_REASONS: Record<NotSentReason, string> = {
  spam: "the submission is spam",
  "released-from-spam": "the submission was stored as spam (a release sends none)",
  "no-address": "it holds no email address to confirm to",
  "no-domain": "the site has no domain",
  "not-from-domain": "it was not sent from a page of the site's domain, and the site has no captcha",
  suppressed: "the address bounced or complained on an earlier confirmation",
  repeated: "this form confirmed to the address less than a day ago",
};

export function confirmationWords(state: ConfirmationState): string {
  switch (state.status) {
    case "off":
      return "Off: the form sent no confirmation.";
    case "pending":
      return "Being decided…";
    case "sent":
      return "Sent to the submitter.";
    case "not-sent":
      return `Not sent: ${CONFIRMATION_REASONS[state.reason]}.`;
  }
}

export const SUPPRESSED_KINDS: Record<SuppressedRecipient["kind"], string> = {
  notification: "Notification recipient",
  confirmation: "Submitter",
};

export const REASON_LABELS: Record<SuppressedRecipient["reason"], string> = { bounce: "Bounced", complaint: "Marked as spam" };
