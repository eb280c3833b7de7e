import { afterAll, beforeAll } from "@jest/globals";
import type { ChatPlatform } from "../../../support/chat-platforms";
import { CHAT_KINDS, type ChatReceiver, startChatReceiver } from "../../../support/chat-receiver";

/**
 * A stand-in of every platform for the calling test file: registers its jest hooks (started
 * before the file's tests, closed after them) and answers the receivers by platform, filled once
 * they started.
 */
export function chatReceiversOfFile(): Record<ChatPlatform, ChatReceiver> {
  const receivers = {} as Record<ChatPlatform, ChatReceiver>;
  beforeAll(async () => {
    for (const kind of CHAT_KINDS) receivers[kind] = await startChatReceiver(kind);
  });
  afterAll(async () => {
    await Promise.all(CHAT_KINDS.map((kind) => receivers[kind].close()));
  });
  return receivers;
}
