import type { DeliveryStatus } from "../../api/types";
import type { ChatKind } from "./queries";

/** The chat platforms, named as their users know them, with where their webhook URL comes from (docs/notifications.md). */
export const PLATFORMS: Record<ChatKind, { label: string; hint: string; placeholder: string }> = {
  slack: {
    label: "Slack",
    hint: "A Slack app's incoming webhook for the channel (api.slack.com/apps → Incoming Webhooks → Add New Webhook).",
    placeholder: "https://hooks.slack.com/services/T…/B…/…",
  },
  teams: {
    label: "Microsoft Teams",
    hint: 'A Workflows webhook: in the channel, Workflows → "Post to a channel when a webhook request is received". Office 365 connector URLs are retired.',
    placeholder: "https://….environment.api.powerplatform.com/powerautomate/…",
  },
  discord: {
    label: "Discord",
    hint: "The channel's webhook: Edit Channel → Integrations → Webhooks → New Webhook → Copy Webhook URL.",
    placeholder: "https://discord.com/api/webhooks/…/…",
  },
  google_chat: {
    label: "Google Chat",
    hint: "The space's webhook: space name → Apps & integrations → Webhooks → Add webhook.",
    placeholder: "https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…",
  },
};

/** A delivery's status in words (never colour alone: docs/dashboard.md, quality bars). */
export const STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: "Pending",
  retrying: "Retrying",
  delivered: "Delivered",
  failed: "Failed",
};

/** The badge beside the status word: the word carries the meaning, the colour only repeats it. */
export const STATUS_BADGE: Record<DeliveryStatus, string> = {
  pending: "border-slate-300 bg-slate-100 text-slate-800 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100",
  retrying: "border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100",
  delivered:
    "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100",
  failed: "border-red-300 bg-red-50 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100",
};

export const EVENT_LABELS: Record<string, string> = {
  "submission.created": "Submission",
  "submission.updated": "Status, owner or tags change",
  "webhook.test": "Test event",
};

/** "200 OK in 35 ms", "no answer", for one attempt. */
export function responseWords(statusCode: number | null): string {
  return statusCode === null ? "No HTTP answer" : `HTTP ${statusCode}`;
}

export function latencyWords(durationMs: number | null): string {
  return durationMs === null ? "—" : `${durationMs} ms`;
}

const preciseTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

/** A timestamp to the second: attempts and retries are seconds apart. */
export const formatPrecise = (iso: string | null | undefined): string => (iso ? preciseTime.format(new Date(iso)) : "—");
