import { shownUrl } from "../../../lib/outbound/chat/kinds";
import { PLATFORMS } from "../../../lib/outbound/chat/platforms";
import { checkDestinationUrl, WrongPlatformUrl } from "../../../lib/outbound/chat/urls";
import type { HttpAttempt } from "../../../lib/outbound/http";
import { attemptError, attemptOutcome } from "../../../lib/outbound/schedule";
import type { ChatKind } from "../../../lib/store/outbound-endpoints";

/** Each platform's webhook URLs (documented hosts and paths) and its answer for a webhook that is gone. */

const VALID: Record<ChatKind, string[]> = {
  slack: ["https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"],
  teams: [
    "https://default0123456789abcdef0123456789ab.cd.environment.api.powerplatform.com:443/powerautomate/automations/direct/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=1&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC-dEf_123",
    "https://prod-27.westeurope.logic.azure.com:443/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=AbC",
  ],
  discord: [
    "https://discord.com/api/webhooks/1015891002667581491/BirZYw-bbisFGXsEqRnBUBge5Opt2sZDeNW3cz0kAPbcJh7NcHOMeBouYqciGPTXMLMr",
    "https://discord.com/api/v10/webhooks/1015891002667581491/BirZYw-bbisFGXsEqRnBUBge5Opt2sZDeNW3cz0kAPbcJh7NcHOMeBouYqciGPTXMLMr?thread_id=123",
  ],
  google_chat: ["https://chat.googleapis.com/v1/spaces/AAAA4ZgyfVE/messages?key=AIzaSyDdI0hCZtE6v&token=N0czkTSXtENAffpG%3D"],
};

const REFUSED: Record<ChatKind, [string, RegExp][]> = {
  slack: [
    ["https://hooks.slack.com.evil.example/services/T0/B0/x", /must be on hooks\.slack\.com/],
    ["http://hooks.slack.com/services/T00000000/B00000000/XXXX", /https/],
    ["https://hooks.slack.com/triggers/T00000000/123/abc", /incoming webhook URL/],
    ["https://discord.com/api/webhooks/1015891002667581491/BirZYw-bbisFGXsEqRnBUBge5Opt2sZDeNW3cz0kAPbcJh7", /hooks\.slack\.com/],
  ],
  teams: [
    ["https://acme.webhook.office.com/webhookb2/abc@def/IncomingWebhook/123/456", /retired/],
    [
      "https://evil.example/powerautomate/automations/direct/workflows/0123456789abcdef0123456789abcdef/triggers/manual/paths/invoke?sig=x",
      /Workflows webhook URL/,
    ],
    [VALID.teams[1]?.replace(/&sig=AbC$/, "") ?? "", /sig/],
  ],
  discord: [
    ["https://discordapp.com/api/webhooks/1015891002667581491/BirZYw-bbisFGXsEqRnBUBge5Opt2sZDeNW3cz0kAPbcJh7", /discord\.com/],
    [
      "https://discord.com/api/webhooks/1015891002667581491/BirZYw-bbisFGXsEqRnBUBge5Opt2sZDeNW3cz0kAPbcJh7?wait=true&x=1",
      /channel webhook URL/,
    ],
    ["https://discord.com/channels/1/2", /channel webhook URL/],
  ],
  google_chat: [
    ["https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k", /space webhook URL/],
    ["https://chat.google.com/v1/spaces/AAAA/messages?key=k&token=t", /chat\.googleapis\.com/],
    ["https://chat.googleapis.com/v1/spaces/AAAA/messages?key=k&token=t#x", /fragment/],
  ],
};

const KINDS = Object.keys(VALID) as ChatKind[];

describe.each(KINDS)("%s destination URLs", (kind) => {
  test.each(VALID[kind])("accepts its platform's webhook URL %s", (url) => {
    expect(checkDestinationUrl(kind, url, false).hostname).toBe(new URL(url).hostname);
  });

  test.each(REFUSED[kind])("refuses %s", (url, reason) => {
    expect(() => checkDestinationUrl(kind, url, false)).toThrow(WrongPlatformUrl);
    expect(() => checkDestinationUrl(kind, url, false)).toThrow(reason);
  });

  test("a loopback URL only where private targets are allowed (a local receiver standing in)", () => {
    expect(checkDestinationUrl(kind, "http://127.0.0.1:4000/slack", true).port).toBe("4000");
    expect(() => checkDestinationUrl(kind, "http://127.0.0.1:4000/slack", false)).toThrow(WrongPlatformUrl);
    expect(() => checkDestinationUrl(kind, "http://10.0.0.1/x", true)).toThrow(WrongPlatformUrl);
  });

  test("answers show the URL masked: host and the last four characters", () => {
    const url = VALID[kind][0] as string;
    const shown = shownUrl({ kind, url });
    expect(shown).toBe(`https://${new URL(url).host}/…${url.slice(-4)}`);
    expect(shown).not.toContain(new URL(url).pathname.slice(0, 12));
    expect(shownUrl({ url: "https://crm.example/hooks/inlet?x=1" })).toBe("https://crm.example/hooks/inlet?x=1");
  });
});

const answer = (statusCode: number, body?: string): HttpAttempt => ({
  statusCode,
  durationMs: 5,
  error: null,
  retryAfter: null,
  location: null,
  refused: false,
  ...(body !== undefined ? { body } : {}),
});

describe("the gone rule of each platform", () => {
  const gone = (kind: ChatKind, response: HttpAttempt) =>
    attemptOutcome(response, 1, 5, { schedule: [1, 1, 1, 1], gone: PLATFORMS[kind].gone }).kind;

  test("Slack: 404 (channel_not_found, no_service) and 410 (channel_is_archived) disable; 403 and 400 retry", () => {
    expect(gone("slack", answer(404, "channel_not_found"))).toBe("disable-endpoint");
    expect(gone("slack", answer(404, "no_service"))).toBe("disable-endpoint");
    expect(gone("slack", answer(410, "channel_is_archived"))).toBe("disable-endpoint");
    expect(gone("slack", answer(403, "action_prohibited"))).toBe("retry");
    expect(gone("slack", answer(400, "invalid_blocks"))).toBe("retry");
    expect(gone("slack", answer(429))).toBe("retry");
  });

  test("Discord: 404 (10015 Unknown Webhook) and 401 with 50027 disable; other 401s, 429 and 5xx retry", () => {
    expect(gone("discord", answer(404, '{"message": "Unknown Webhook", "code": 10015}'))).toBe("disable-endpoint");
    expect(gone("discord", answer(401, '{"message": "Invalid Webhook Token", "code": 50027}'))).toBe("disable-endpoint");
    expect(gone("discord", answer(401, '{"message": "401: Unauthorized", "code": 0}'))).toBe("retry");
    expect(gone("discord", answer(429, '{"retry_after": 1.5}'))).toBe("retry");
    expect(gone("discord", answer(502))).toBe("retry");
  });

  test("Google Chat: 404 NOT_FOUND disables; 403 and 429 retry", () => {
    expect(gone("google_chat", answer(404, '{"error": {"code": 404, "status": "NOT_FOUND"}}'))).toBe("disable-endpoint");
    expect(gone("google_chat", answer(403, '{"error": {"status": "PERMISSION_DENIED"}}'))).toBe("retry");
    expect(gone("google_chat", answer(429))).toBe("retry");
  });

  test("Teams: only 410 disables (Microsoft documents no answer for a deleted workflow)", () => {
    expect(gone("teams", answer(410))).toBe("disable-endpoint");
    expect(gone("teams", answer(404))).toBe("retry");
  });

  test("a chat attempt's log line carries the platform's short answer, one line", () => {
    const outcome = { kind: "disable-endpoint" } as const;
    expect(attemptError(answer(404, "no_service\n"), outcome, true)).toBe(
      "HTTP 404 (no_service): the webhook is gone, the destination was disabled",
    );
    expect(attemptError(answer(400, "invalid_blocks"), { kind: "retry", afterMs: 1 }, true)).toBe("HTTP 400 (invalid_blocks)");
    expect(attemptError(answer(400, "secret stuff"), { kind: "retry", afterMs: 1 }, false)).toBe("HTTP 400");
    expect(attemptError(answer(410), outcome, false)).toBe("410 Gone: the endpoint was disabled");
  });
});
