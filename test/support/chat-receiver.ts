import type { EndpointKind } from "../../lib/store/outbound-endpoints";
import { type ChatPlatform, platformProblems } from "./chat-platforms";
import { type ReceivedRequest, type Receiver, type Reply, startReceiver } from "./outbound-receiver";

/**
 * A local stand-in for a chat platform's webhook endpoint: every message is checked against
 * what the platform accepts (./chat-platforms.ts) and answered as the platform answers, a valid
 * one with its success (Slack `200 ok`, Teams Workflows `202`, Discord `204`, Google Chat `200`
 * with the message) and an invalid one with its refusal (`400 invalid_blocks`, Discord's `50035`,
 * Google's `INVALID_ARGUMENT`), so a message the platform would refuse fails the delivery.
 * Replies can be scripted per path as with any receiver (a deleted webhook's answer).
 */

const ACCEPTED: Record<ChatPlatform, Reply> = {
  slack: { status: 200, body: "ok" },
  teams: { status: 202, body: "" },
  discord: { status: 204, body: "" },
  google_chat: { status: 200, headers: { "content-type": "application/json" }, body: '{"name":"spaces/AAAA/messages/x.x"}' },
};

const REFUSED: Record<ChatPlatform, (problems: string[]) => Reply> = {
  slack: () => ({ status: 400, body: "invalid_blocks" }),
  teams: (problems) => ({ status: 400, body: problems.join("; ") }),
  discord: () => ({
    status: 400,
    headers: { "content-type": "application/json" },
    body: '{"code": 50035, "message": "Invalid Form Body"}',
  }),
  google_chat: () => ({
    status: 400,
    headers: { "content-type": "application/json" },
    body: '{"error": {"code": 400, "status": "INVALID_ARGUMENT"}}',
  }),
};

export interface ChatReceiver extends Receiver {
  platform: ChatPlatform;
  /** The problems found in each request to `path`, in arrival order. */
  problems(path: string): string[][];
}

export async function startChatReceiver(platform: Exclude<EndpointKind, "webhook">): Promise<ChatReceiver> {
  const checked = new Map<ReceivedRequest, string[]>();
  const receiver = await startReceiver((request) => {
    const problems = platformProblems(platform, request.body);
    checked.set(request, problems);
    return problems.length === 0 ? ACCEPTED[platform] : REFUSED[platform](problems);
  });
  return {
    ...receiver,
    platform,
    problems: (path) =>
      receiver.requests(path).map((request) => checked.get(request) ?? platformProblems(platform, request.body)),
  };
}

/** Every chat platform, in the order the tests go through them. */
export const CHAT_KINDS = ["slack", "teams", "discord", "google_chat"] as const satisfies readonly ChatPlatform[];
