import type { ChatKind } from "../../store/outbound-endpoints";
import type { HttpAttempt } from "../http";

/**
 * What differs between the chat platforms, and nothing else: the webhook URLs each documents,
 * its answer for a webhook that is gone, and (./bodies.ts, apart so the management routes load
 * no message builder) its message format. Everything around them (the delivery item, retries,
 * the log, replays, test messages) is the one delivery machinery of ../attempts.ts
 * (docs/notifications.md).
 */

export interface Platform {
  name: string;
  /** Why `url` is not one of the platform's webhook URLs (https, host and path), or null. */
  refuse(url: URL): string | null;
  /**
   * Whether the answer says the webhook is gone for good, so the destination is disabled rather
   * than retried for days (each platform's documented answer; docs/notifications.md, "When a
   * destination is disabled"). 410 is gone everywhere, as for outbound webhooks.
   */
  gone(response: HttpAttempt): boolean;
}

const onlyParams = (url: URL, allowed: readonly string[]) => [...url.searchParams.keys()].every((k) => allowed.includes(k));

/** https on the default port, no credentials, no fragment: what every platform's webhook URL is. */
function plainHttps(url: URL): string | null {
  if (url.protocol !== "https:") return "must be an https URL";
  if (url.port !== "" && url.port !== "443") return "must use the default https port";
  if (url.username || url.password) return "must not carry a user name or password";
  if (url.hash) return "must not have a fragment";
  return null;
}

const is410 = (response: HttpAttempt) => response.statusCode === 410;
const bodyHas = (response: HttpAttempt, word: string) => (response.body ?? "").includes(word);

export const PLATFORMS: Record<ChatKind, Platform> = {
  slack: {
    name: "Slack",
    // https://docs.slack.dev/messaging/sending-messages-using-incoming-webhooks: hooks.slack.com/services/T…/B…/…
    refuse: (url) =>
      plainHttps(url) ??
      (url.hostname !== "hooks.slack.com"
        ? "must be on hooks.slack.com"
        : !/^\/services\/T[A-Z0-9]+\/B[A-Z0-9]+\/[A-Za-z0-9]+$/.test(url.pathname) || url.search
          ? "must be an incoming webhook URL (https://hooks.slack.com/services/T…/B…/…)"
          : null),
    // https://api.slack.com/changelog/2016-05-17-changes-to-errors-for-incoming-webhooks: 404
    // channel_not_found, 410 channel_is_archived; a removed or revoked webhook answers
    // `no_service` (404). A 403 (action_prohibited: a workspace restriction) may be lifted: retried.
    gone: (response) => is410(response) || response.statusCode === 404 || bodyHas(response, "no_service"),
  },
  teams: {
    name: "Microsoft Teams",
    // Workflows ("Post to a channel when a webhook request is received") give a Power Platform or
    // Logic Apps trigger URL signed by its `sig` parameter; Office 365 connector URLs
    // (*.webhook.office.com) are retired.
    refuse: (url) => {
      const https = plainHttps(url);
      if (https) return https;
      const host = url.hostname;
      if (host.endsWith(".webhook.office.com") || host === "outlook.office.com") {
        return "is an Office 365 connector URL, which Microsoft retired: create a Workflows webhook instead";
      }
      const powerPlatform =
        /^[a-z0-9-]+\.[0-9a-z]{2}\.environment\.api\.powerplatform\.com$/.test(host) &&
        /^\/powerautomate\/automations\/direct\/workflows\/[0-9a-f]{32}\/triggers\/manual\/paths\/invoke$/.test(url.pathname);
      const logicApps =
        /^prod-\d{1,3}\.[a-z0-9]+\.logic\.azure\.com$/.test(host) &&
        /^\/workflows\/[0-9a-f]{32}\/triggers\/manual\/paths\/invoke$/.test(url.pathname);
      if (!powerPlatform && !logicApps) {
        return "must be a Workflows webhook URL (…environment.api.powerplatform.com/powerautomate/… or prod-….logic.azure.com/workflows/…)";
      }
      return url.searchParams.get("sig") ? null : "must keep its sig parameter (copy the whole URL from the workflow)";
    },
    // Microsoft documents no answer for a deleted workflow's trigger: only 410 disables; anything
    // else is retried on the schedule and ends as failed (docs/notifications.md).
    gone: is410,
  },
  discord: {
    name: "Discord",
    // https://discord.com/developers/docs/resources/webhook#execute-webhook: POST /webhooks/{id}/{token};
    // discord.com only (discordapp.com is rate limited as a whole since 2023).
    refuse: (url) =>
      plainHttps(url) ??
      (url.hostname !== "discord.com"
        ? "must be on discord.com"
        : !/^\/api(\/v\d{1,2})?\/webhooks\/\d{15,25}\/[A-Za-z0-9_-]{30,100}$/.test(url.pathname) ||
            !onlyParams(url, ["thread_id"])
          ? "must be a channel webhook URL (https://discord.com/api/webhooks/{id}/{token})"
          : null),
    // https://discord.com/developers/docs/topics/opcodes-and-status-codes: 404 with code 10015
    // (Unknown Webhook) for a deleted webhook, 401 with 50027 (Invalid Webhook Token). Repeated
    // 401s and 404s count toward Discord's invalid-request limit (rate-limits, "Invalid Request
    // Limit"), so any 404 stops too.
    gone: (response) =>
      is410(response) || response.statusCode === 404 || (response.statusCode === 401 && bodyHas(response, "50027")),
  },
  google_chat: {
    name: "Google Chat",
    // https://developers.google.com/workspace/chat/quickstart/webhooks:
    // https://chat.googleapis.com/v1/spaces/{space}/messages?key=…&token=…
    refuse: (url) =>
      plainHttps(url) ??
      (url.hostname !== "chat.googleapis.com"
        ? "must be on chat.googleapis.com"
        : !/^\/v1\/spaces\/[A-Za-z0-9_-]+\/messages$/.test(url.pathname) ||
            !url.searchParams.get("key") ||
            !url.searchParams.get("token") ||
            !onlyParams(url, ["key", "token", "threadKey", "messageReplyOption"])
          ? "must be a space webhook URL (https://chat.googleapis.com/v1/spaces/…/messages?key=…&token=…)"
          : null),
    // Google's API error model: 404 NOT_FOUND is "a requested entity was not found"
    // (https://cloud.google.com/apis/design/errors): the space or its webhook is gone.
    gone: (response) => is410(response) || response.statusCode === 404,
  },
};
