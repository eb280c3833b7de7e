import type { ChatKind } from "../../store/outbound-endpoints";
import { discordBody } from "./discord";
import { googleChatBody } from "./google-chat";
import type { LeadMessage } from "./message";
import { slackBody } from "./slack";
import { teamsBody } from "./teams";

/** Each platform's message format (./platforms.ts has the rest of what differs between them). */
export const BODIES: Record<ChatKind, (message: LeadMessage, deliveryId: string) => unknown> = {
  slack: slackBody,
  teams: teamsBody,
  discord: discordBody,
  // The card id only needs to be unique within the message; the delivery id says which it was.
  google_chat: googleChatBody,
};
