import type { KnownBlock, PlainTextElement } from "@slack/types";
import { clip, fitFields, type LeadMessage, omittedWords } from "./message";

/**
 * A Slack incoming webhook's message: Block Kit (https://docs.slack.dev/reference/block-kit/blocks)
 * with a `text` fallback for notifications. Typed by Slack's own SDK types (@slack/types).
 *
 * Escaping (https://docs.slack.dev/messaging/formatting-message-text, "Escaping text"): Slack
 * reads `&`, `<` and `>` as control characters in every text, and a mention (`<!channel>`,
 * `<!here>`, `<@U…>`, `<!subteam^…>`) or a disguised link (`<https://evil|bank.com>`) needs a
 * literal `<`; so those three become entities everywhere. Submitted values go in `plain_text`
 * objects, where `*bold*`, `_italic_` and backticks are not formatting. `link_names` is never
 * set, so a bare "@channel" is text.
 */

// Limits, https://docs.slack.dev/reference/block-kit/blocks (section, header, context):
/** "You can include up to 50 blocks in each message." */
export const SLACK_MAX_BLOCKS = 50;
/** Header block text: "Maximum length for the text in this field is 150 characters." */
export const SLACK_HEADER_MAX = 150;
/** Section text: 3000 characters; section `fields`: at most 10 items of at most 2000 characters. */
export const SLACK_SECTION_TEXT_MAX = 3000;
export const SLACK_FIELDS_PER_SECTION = 10;
export const SLACK_FIELD_TEXT_MAX = 2000;
/** Context block: at most 10 elements. */
export const SLACK_CONTEXT_ELEMENTS_MAX = 10;
/**
 * All block texts together. Slack documents no total, but answers `msg_blocks_too_long` from
 * about 13,200 characters of blocks (slackapi/bolt-js#2509, 2025): stay well under it.
 */
export const SLACK_BLOCKS_TEXT_BUDGET = 12_000;
/** The fallback `text` shown in notifications: one line. */
export const SLACK_FALLBACK_MAX = 300;

export const escapeSlack = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A plain_text object of `text` escaped, then cut to `max` (an entity is never cut in half: see cutEscaped). */
const plain = (text: string, max: number): PlainTextElement => ({
  type: "plain_text",
  text: cutEscaped(text, max),
  emoji: false,
});

/** Escapes and cuts to `max` characters without leaving half an entity (`&am…`). */
function cutEscaped(text: string, max: number): string {
  const escaped = escapeSlack(text);
  if (escaped.length <= max) return escaped;
  const cut = clip(escaped, max);
  const amp = cut.lastIndexOf("&", cut.length - 1);
  // An entity is at most 5 characters ("&amp;"): one cut within it loses it whole.
  return amp >= 0 && amp > cut.length - 6 && !cut.slice(amp, -1).includes(";") ? `${cut.slice(0, amp)}…` : cut;
}

function blocksOf(message: LeadMessage): KnownBlock[] {
  const grade = message.grade ? ` (score ${message.score})` : "";
  const blocks: KnownBlock[] = [{ type: "header", text: plain(`${message.title}: ${message.formName}`, SLACK_HEADER_MAX) }];
  const who = message.submitter;
  const lines = [
    ...(message.grade ? [`Lead grade: ${message.grade}${grade}`] : []),
    ...(who?.name ? [`From: ${who.name}`] : []),
    ...(who?.email ? [`Email: ${who.email}`] : []),
    ...(message.note ? [message.note] : []),
  ];
  if (lines.length > 0) blocks.push({ type: "section", text: plain(lines.join("\n"), SLACK_SECTION_TEXT_MAX) });
  for (let i = 0; i < message.fields.length; i += SLACK_FIELDS_PER_SECTION) {
    const chunk = message.fields.slice(i, i + SLACK_FIELDS_PER_SECTION);
    blocks.push({ type: "section", fields: chunk.map((f) => plain(`${f.label}\n${f.value}`, SLACK_FIELD_TEXT_MAX)) });
  }
  if (message.omitted > 0) blocks.push({ type: "context", elements: [plain(omittedWords(message.omitted), 300)] });
  blocks.push({
    type: "context",
    elements: [
      ...(message.reference ? [plain(`Reference ${message.reference}`, 200)] : []),
      // Our own link (BASE_URL and an id): the one mrkdwn text, so the link is clickable.
      { type: "mrkdwn", text: `<${message.link}|${message.linkLabel}>`, verbatim: true },
    ],
  });
  return blocks;
}

const blocksText = (blocks: KnownBlock[]) => JSON.stringify(blocks).length;

/** The JSON body for a Slack incoming webhook. */
export function slackBody(message: LeadMessage) {
  const fitted = fitFields(message, SLACK_BLOCKS_TEXT_BUDGET, (m) => blocksText(blocksOf(m)));
  return {
    text: cutEscaped(
      `${message.title}: ${message.formName}${message.reference ? ` (${message.reference})` : ""}`,
      SLACK_FALLBACK_MAX,
    ),
    blocks: blocksOf(fitted),
  };
}
