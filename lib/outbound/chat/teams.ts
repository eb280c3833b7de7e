import { fitFields, type LeadMessage, omittedWords } from "./message";

/**
 * A Microsoft Teams Workflows webhook's message: an Adaptive Card in the `message` envelope that
 * the "Post to a channel when a webhook request is received" flow posts
 * (https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook).
 * Office 365 connectors are retired, so no MessageCard.
 *
 * Escaping: TextBlock and Fact texts are Markdown, with no documented escape. So every text that
 * is not our own fixed words goes in a RichTextBlock's TextRun, whose text is never Markdown
 * (https://adaptivecards.io/explorer/TextRun.html: "Markdown is not supported"); a mention needs
 * `<at>` plus an `msteams.entities` entry, which we never send, so none can come from input.
 */

/** Teams renders cards up to schema 1.5 (learn.microsoft.com, "Adaptive Cards overview"). */
export const TEAMS_CARD_VERSION = "1.5";
/**
 * "The message size limit is 28 KB" (add-incoming-webhook, "Rate limiting for connectors"):
 * the whole request body, measured in UTF-8 bytes; we stay 4 KB under it.
 */
export const TEAMS_MESSAGE_MAX_BYTES = 28 * 1024;
export const TEAMS_BODY_BUDGET_BYTES = 24 * 1024;

/** `<at>` only mentions with an msteams.entities entry, which we never send; a zero-width space makes sure. */
const noMention = (text: string) => text.replace(/<(\/?at)>/gi, "<\u200b$1>");
const run = (text: string, extra: Record<string, unknown> = {}) => ({ type: "TextRun", text: noMention(text), ...extra });

function card(message: LeadMessage) {
  const who = message.submitter;
  const facts = [
    ...(message.grade ? [`Lead grade: ${message.grade} (score ${message.score})`] : []),
    ...(who?.name ? [`From: ${who.name}`] : []),
    ...(who?.email ? [`Email: ${who.email}`] : []),
    ...(message.reference ? [`Reference: ${message.reference}`] : []),
  ];
  return {
    type: "AdaptiveCard",
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    version: TEAMS_CARD_VERSION,
    body: [
      {
        type: "RichTextBlock",
        inlines: [run(message.title, { weight: "bolder", size: "medium" }), run(`\n${message.formName}`, { weight: "bolder" })],
      },
      ...(facts.length > 0 ? [{ type: "RichTextBlock", inlines: [run(facts.join("\n"))] }] : []),
      ...(message.note ? [{ type: "RichTextBlock", inlines: [run(message.note, { isSubtle: true })] }] : []),
      ...message.fields.map((field) => ({
        type: "RichTextBlock",
        separator: true,
        inlines: [run(field.label, { weight: "bolder" }), run(`\n${field.value}`)],
      })),
      ...(message.omitted > 0
        ? [{ type: "RichTextBlock", inlines: [run(omittedWords(message.omitted), { isSubtle: true })] }]
        : []),
    ],
    actions: [{ type: "Action.OpenUrl", title: message.linkLabel, url: message.link }],
    msteams: { width: "Full" },
  };
}

const envelope = (message: LeadMessage) => ({
  type: "message",
  attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", contentUrl: null, content: card(message) }],
});

export function teamsBody(message: LeadMessage) {
  return envelope(fitFields(message, TEAMS_BODY_BUDGET_BYTES, (m) => Buffer.byteLength(JSON.stringify(envelope(m)))));
}
