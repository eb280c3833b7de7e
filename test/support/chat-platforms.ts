import { createRequire } from "node:module";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/**
 * What each chat platform accepts, as the tests check it: the structure and limits each one
 * publishes, as JSON schemas (ajv), plus the checks a schema cannot say (a total size, the
 * characters of all embeds, markup that could ping or disguise a link). Teams' card is checked by
 * Microsoft's own Adaptive Cards SDK (`adaptivecards`: its parser reports unknown elements,
 * invalid property values, missing required properties and unsupported versions), inside the
 * Workflows envelope's schema, which also holds the published Adaptive Card schema's definitions
 * of the elements Inlet's cards use (the parser lets a missing text or a wrong type through). Each limit names where it is published
 * (docs/notifications.md has the same table). Used by the local receivers
 * (./chat-receiver.ts) and by the unit tests of the message builders.
 */

export type ChatPlatform = "slack" | "teams" | "discord" | "google_chat";

// strictRequired off: a section requires `text` or `fields` (anyOf), both declared beside it.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
addFormats(ajv);

const text = (max: number) => ({ type: "string", minLength: 1, maxLength: max });

// Slack: https://docs.slack.dev/reference/block-kit/blocks, .../composition-objects/text-object
const slackText = (max: number) => ({
  type: "object",
  additionalProperties: false,
  required: ["type", "text"],
  properties: {
    type: { enum: ["plain_text", "mrkdwn"] },
    text: text(max),
    emoji: { type: "boolean" },
    verbatim: { type: "boolean" },
  },
});
const slackSchema = {
  type: "object",
  additionalProperties: false,
  required: ["text", "blocks"],
  properties: {
    text: text(40_000),
    blocks: {
      type: "array",
      minItems: 1,
      maxItems: 50,
      items: {
        oneOf: [
          {
            type: "object",
            additionalProperties: false,
            required: ["type", "text"],
            properties: {
              type: { const: "header" },
              text: { ...slackText(150), properties: { ...slackText(150).properties, type: { const: "plain_text" } } },
            },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["type"],
            anyOf: [{ required: ["text"] }, { required: ["fields"] }],
            properties: {
              type: { const: "section" },
              text: slackText(3000),
              fields: { type: "array", minItems: 1, maxItems: 10, items: slackText(2000) },
            },
          },
          {
            type: "object",
            additionalProperties: false,
            required: ["type", "elements"],
            properties: {
              type: { const: "context" },
              elements: { type: "array", minItems: 1, maxItems: 10, items: slackText(3000) },
            },
          },
        ],
      },
    },
  },
};

// Discord: https://discord.com/developers/docs/resources/webhook#execute-webhook and
// .../resources/message#embed-object-embed-limits, #allowed-mentions-object
const discordSchema = {
  type: "object",
  additionalProperties: false,
  required: ["embeds", "allowed_mentions"],
  properties: {
    content: { type: "string", maxLength: 2000 },
    allowed_mentions: {
      type: "object",
      additionalProperties: false,
      required: ["parse"],
      properties: { parse: { type: "array", maxItems: 0 } },
    },
    embeds: {
      type: "array",
      minItems: 1,
      maxItems: 10,
      items: {
        type: "object",
        additionalProperties: false,
        properties: {
          title: text(256),
          description: text(4096),
          url: { type: "string", format: "uri" },
          color: { type: "integer", minimum: 0, maximum: 0xffffff },
          timestamp: { type: "string", format: "date-time" },
          footer: { type: "object", additionalProperties: false, required: ["text"], properties: { text: text(2048) } },
          fields: {
            type: "array",
            maxItems: 25,
            items: {
              type: "object",
              additionalProperties: false,
              required: ["name", "value"],
              properties: { name: text(256), value: text(1024), inline: { type: "boolean" } },
            },
          },
        },
      },
    },
  },
};

// Google Chat: https://developers.google.com/workspace/chat/api/reference/rest/v1/cards (CardWithId, Card, Section, Widget)
const chatWidget = {
  oneOf: [
    {
      type: "object",
      additionalProperties: false,
      required: ["decoratedText"],
      properties: {
        decoratedText: {
          type: "object",
          additionalProperties: false,
          required: ["text"],
          properties: { topLabel: { type: "string" }, text: text(32_000), wrapText: { type: "boolean" } },
        },
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["textParagraph"],
      properties: {
        textParagraph: { type: "object", additionalProperties: false, required: ["text"], properties: { text: text(32_000) } },
      },
    },
    {
      type: "object",
      additionalProperties: false,
      required: ["buttonList"],
      properties: {
        buttonList: {
          type: "object",
          additionalProperties: false,
          required: ["buttons"],
          properties: {
            buttons: {
              type: "array",
              minItems: 1,
              items: {
                type: "object",
                additionalProperties: false,
                required: ["text", "onClick"],
                properties: {
                  text: text(200),
                  onClick: {
                    type: "object",
                    additionalProperties: false,
                    required: ["openLink"],
                    properties: {
                      openLink: {
                        type: "object",
                        additionalProperties: false,
                        required: ["url"],
                        properties: { url: { type: "string", format: "uri" } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  ],
};
const googleChatSchema = {
  type: "object",
  additionalProperties: false,
  required: ["cardsV2"],
  properties: {
    text: { type: "string", maxLength: 4096 },
    cardsV2: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["cardId", "card"],
        properties: {
          cardId: text(255),
          card: {
            type: "object",
            additionalProperties: false,
            required: ["sections"],
            properties: {
              header: {
                type: "object",
                additionalProperties: false,
                required: ["title"],
                properties: { title: text(1000), subtitle: { type: "string" } },
              },
              sections: {
                type: "array",
                minItems: 1,
                items: {
                  type: "object",
                  additionalProperties: false,
                  required: ["widgets"],
                  properties: { header: { type: "string" }, widgets: { type: "array", minItems: 1, items: chatWidget } },
                },
              },
            },
          },
        },
      },
    },
  },
};

// Adaptive Card 1.5 (https://adaptivecards.io/schemas/adaptive-card.json; no npm package ships
// it: docs/notifications.md), the definitions of what Inlet's cards hold, as published: the
// body and actions are arrays; a RichTextBlock's inlines are TextRuns or strings; a TextRun
// needs its text; the enums and booleans of their properties. Other element and action types
// are left to the SDK's parser below, which knows them all.
const oneOf = (...values: string[]) => ({ enum: values });
const SPACING = oneOf("default", "none", "small", "medium", "large", "extraLarge", "padding");
const textRunSchema = {
  type: "object",
  required: ["type", "text"],
  properties: {
    type: { const: "TextRun" },
    text: { type: "string" },
    color: oneOf("default", "dark", "light", "accent", "good", "warning", "attention"),
    fontType: oneOf("default", "monospace"),
    highlight: { type: "boolean" },
    isSubtle: { type: "boolean" },
    italic: { type: "boolean" },
    size: oneOf("default", "small", "medium", "large", "extraLarge"),
    strikethrough: { type: "boolean" },
    underline: { type: "boolean" },
    weight: oneOf("default", "lighter", "bolder"),
  },
};
const cardElementSchema = {
  type: "object",
  required: ["type"],
  properties: {
    type: { type: "string" },
    id: { type: "string" },
    isVisible: { type: "boolean" },
    separator: { type: "boolean" },
    spacing: SPACING,
    height: oneOf("auto", "stretch"),
  },
  if: { properties: { type: { const: "RichTextBlock" } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
  then: {
    required: ["inlines"],
    properties: {
      inlines: { type: "array", items: { anyOf: [{ type: "string" }, textRunSchema] } },
      horizontalAlignment: oneOf("left", "center", "right"),
    },
  },
};
const cardActionSchema = {
  type: "object",
  required: ["type"],
  properties: { type: { type: "string" }, title: { type: "string" }, style: oneOf("default", "positive", "destructive") },
  if: { properties: { type: { const: "Action.OpenUrl" } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, not a promise
  then: { required: ["url"], properties: { url: { type: "string", format: "uri-reference" } } },
};

// Teams Workflows: the envelope of https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook
const teamsEnvelopeSchema = {
  type: "object",
  additionalProperties: false,
  required: ["type", "attachments"],
  properties: {
    type: { const: "message" },
    attachments: {
      type: "array",
      minItems: 1,
      maxItems: 1,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["contentType", "content"],
        properties: {
          contentType: { const: "application/vnd.microsoft.card.adaptive" },
          contentUrl: { type: "null" },
          content: {
            type: "object",
            required: ["type", "version", "body"],
            properties: {
              type: { const: "AdaptiveCard" },
              version: { enum: ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5"] },
              body: { type: "array", items: cardElementSchema },
              actions: { type: "array", items: cardActionSchema },
              msteams: { type: "object", properties: { width: { const: "Full" } } },
            },
          },
        },
      },
    },
  },
};

const SCHEMAS: Record<ChatPlatform, ValidateFunction> = {
  slack: ajv.compile(slackSchema),
  discord: ajv.compile(discordSchema),
  google_chat: ajv.compile(googleChatSchema),
  teams: ajv.compile(teamsEnvelopeSchema),
};

/** Every string in `value`, with its JSON path. */
function strings(value: unknown, path = "$"): { path: string; text: string }[] {
  if (typeof value === "string") return [{ path, text: value }];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${path}[${i}]`));
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => strings(v, `${path}.${k}`));
  return [];
}

const require = createRequire(import.meta.url);
// The UMD build: the package's ESM build names its files without extensions, which Node cannot load.
const AdaptiveCards = require("adaptivecards/dist/adaptivecards.js") as {
  AdaptiveCard: new () => {
    parse(json: unknown, context: unknown): void;
    validateProperties(): { validationEvents: { message: string }[] };
  };
  SerializationContext: new () => { eventCount: number; getEventAt(i: number): { message: string } };
};

/**
 * Microsoft's parser over the card: every event it reports is a problem, and so is what makes it
 * throw (an element where only an inline may be, in a RichTextBlock).
 */
function adaptiveCardProblems(card: unknown): string[] {
  const parsed = new AdaptiveCards.AdaptiveCard();
  const context = new AdaptiveCards.SerializationContext();
  try {
    parsed.parse(card, context);
  } catch (error) {
    return [`the parser refused it: ${(error as Error).message}`];
  }
  const events = Array.from({ length: context.eventCount }, (_, i) => context.getEventAt(i).message);
  return [...events, ...parsed.validateProperties().validationEvents.map((e) => e.message)];
}

/** Teams: "The message size limit is 28 KB" (add-incoming-webhook, "Rate limiting for connectors"). */
export const TEAMS_MAX_BYTES = 28 * 1024;
/** Google Chat: a message with cards is at most 32,000 bytes (developers.google.com/workspace/chat/limits). */
export const GOOGLE_CHAT_MAX_BYTES = 32_000;
/** Discord: all embeds of a message together, at most 6000 characters (embed limits). */
export const DISCORD_EMBED_TOTAL = 6000;
/** Slack answers `msg_blocks_too_long` from about 13,200 characters of blocks (slackapi/bolt-js#2509). */
export const SLACK_BLOCKS_TOTAL = 13_000;

/**
 * The problems a platform would have with `raw` (the request body as sent): empty when it is a
 * valid message. It also looks for markup that could ping or disguise a link in any text.
 */
export function platformProblems(platform: ChatPlatform, raw: string): string[] {
  let body: any;
  try {
    body = JSON.parse(raw);
  } catch {
    return ["the body is not JSON"];
  }
  const validate = SCHEMAS[platform];
  const problems = validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  const texts = strings(body);
  const bytes = Buffer.byteLength(raw);
  if (platform === "slack") {
    const blocksText = JSON.stringify(body.blocks ?? []).length;
    if (blocksText > SLACK_BLOCKS_TOTAL) problems.push(`blocks hold ${blocksText} characters (msg_blocks_too_long)`);
    for (const { path, text } of texts) {
      // Our one link: a mrkdwn `<https://…|label>`. Any other `<` opens a mention or a link.
      const rest = text.replace(/^<https?:\/\/[^\s<>|]+\|[^<>]+>$/, "");
      if (rest.includes("<") || rest.includes(">")) problems.push(`${path}: an unescaped < or >`);
      if (/&(?!amp;|lt;|gt;)/.test(text)) problems.push(`${path}: an unescaped &`);
    }
  }
  if (platform === "discord") {
    const chars = (body.embeds ?? []).reduce(
      (sum: number, e: any) =>
        sum +
        (e.title?.length ?? 0) +
        (e.description?.length ?? 0) +
        (e.footer?.text?.length ?? 0) +
        (e.fields ?? []).reduce((n: number, f: any) => n + f.name.length + f.value.length, 0),
      0,
    );
    if (chars > DISCORD_EMBED_TOTAL) problems.push(`embeds hold ${chars} characters`);
    for (const { path, text } of texts) {
      if (/(?<!\\)\[[^\]]*(?<!\\)\]\(/.test(text)) problems.push(`${path}: a masked link`);
      if (/(?<!\\)<[@#!&:]/.test(text)) problems.push(`${path}: a mention`);
      if (/@(everyone|here)/i.test(text)) problems.push(`${path}: @everyone or @here`);
    }
  }
  if (platform === "google_chat") {
    if (bytes > GOOGLE_CHAT_MAX_BYTES) problems.push(`${bytes} bytes`);
    const widgets = (body.cardsV2?.[0]?.card?.sections ?? []).reduce((n: number, s: any) => n + (s.widgets?.length ?? 0), 0);
    if (widgets > 100) problems.push(`${widgets} widgets`);
    for (const { path, text } of texts) if (/[<>]/.test(text)) problems.push(`${path}: a < or > (an HTML tag)`);
  }
  if (platform === "teams") {
    if (bytes > TEAMS_MAX_BYTES) problems.push(`${bytes} bytes`);
    const card = body.attachments?.[0]?.content;
    if (card) problems.push(...adaptiveCardProblems(card).map((p) => `card: ${p}`));
    if (card?.msteams?.entities) problems.push("card: msteams.entities (a mention)");
    // Markdown is read in TextBlock and Fact texts only: user text must never be there.
    for (const { path, text } of texts) {
      if (/<at>/i.test(text)) problems.push(`${path}: <at> (a mention)`);
    }
    const markdownTexts = JSON.stringify(card ?? {}).match(/"type":"(TextBlock|FactSet)"/g);
    if (markdownTexts) problems.push("card: a TextBlock or FactSet (Markdown) holds text");
  }
  return problems;
}
