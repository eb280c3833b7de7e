import type { APIEmbed, RESTPostAPIWebhookWithTokenJSONBody } from "discord-api-types/v10";
import { clip, fitFields, type LeadMessage, omittedWords } from "./message";

/**
 * A Discord channel webhook's message: one embed (https://discord.com/developers/docs/resources/message#embed-object),
 * typed by discord-api-types.
 *
 * Escaping: embed descriptions and field values are Markdown, and Discord's parser shows a
 * backslashed punctuation character as itself. So every character that formats (`* _ ~ \` | \`),
 * opens a masked link (`[bank.com](https://evil)`: `[` `]`) or a mention, emoji or timestamp
 * (`<@id>`, `<:e:1>`, `<t:1>`: `<`), and a heading, quote or list at a line's start, gets a
 * backslash; `@everyone`/`@here` get a zero-width space. Linear, unlike discord.js's
 * `escapeMarkdown`, whose look-behind expressions took 20 ms per hostile 1 KB value here.
 * Above all `allowed_mentions: {parse: []}`: the webhook pings nobody whatever the text says
 * (webhooks parse mentions by default:
 * https://discord.com/developers/docs/resources/message#allowed-mentions-object).
 */

// Limits, https://discord.com/developers/docs/resources/message#embed-object-embed-limits:
export const DISCORD_TITLE_MAX = 256;
export const DISCORD_DESCRIPTION_MAX = 4096;
export const DISCORD_FIELDS_MAX = 25;
export const DISCORD_FIELD_NAME_MAX = 256;
export const DISCORD_FIELD_VALUE_MAX = 1024;
export const DISCORD_FOOTER_MAX = 2048;
/** "The combined sum of characters in all title, description, field.name, field.value, footer.text, and author.name fields across all embeds attached to a message must not exceed 6000 characters." */
export const DISCORD_EMBEDS_TOTAL_MAX = 6000;
const DISCORD_EMBEDS_BUDGET = 5800;

const GRADE_COLOUR = { hot: 0xdc2626, warm: 0xf59e0b, cold: 0x64748b } as const;

export function escapeDiscord(text: string): string {
  return text
    .replace(/[\\*_~`|[\]<>]/g, "\\$&")
    .replace(/^([ \t]*)(#|-|\+|\d{1,9}\.)/gm, "$1\\$2")
    .replace(/@(everyone|here)/gi, "@\u200b$1");
}

const escaped = (text: string, max: number) => clip(escapeDiscord(text), max);

function embedOf(message: LeadMessage): APIEmbed {
  const who = message.submitter;
  const lines = [
    ...(message.grade ? [`Lead grade: ${message.grade} (score ${message.score})`] : []),
    ...(who?.name ? [`From: ${who.name}`] : []),
    ...(who?.email ? [`Email: ${who.email}`] : []),
    ...(message.note ? [message.note] : []),
    ...(message.omitted > 0 ? [omittedWords(message.omitted)] : []),
  ];
  return {
    title: escaped(`${message.title}: ${message.formName}`, DISCORD_TITLE_MAX),
    url: message.link,
    ...(lines.length > 0 ? { description: escaped(lines.join("\n"), DISCORD_DESCRIPTION_MAX) } : {}),
    ...(message.grade ? { color: GRADE_COLOUR[message.grade] } : {}),
    fields: message.fields.slice(0, DISCORD_FIELDS_MAX).map((field) => ({
      name: escaped(field.label, DISCORD_FIELD_NAME_MAX),
      value: escaped(field.value, DISCORD_FIELD_VALUE_MAX),
    })),
    footer: { text: escaped(message.reference ? `Reference ${message.reference}` : "Inlet", DISCORD_FOOTER_MAX) },
  };
}

/** The characters Discord counts toward the 6000 of a message's embeds. */
export const embedCharacters = (embed: APIEmbed) =>
  (embed.title?.length ?? 0) +
  (embed.description?.length ?? 0) +
  (embed.footer?.text.length ?? 0) +
  (embed.author?.name.length ?? 0) +
  (embed.fields ?? []).reduce((sum, f) => sum + f.name.length + f.value.length, 0);

export function discordBody(message: LeadMessage): RESTPostAPIWebhookWithTokenJSONBody {
  const fitted = fitFields(message, DISCORD_EMBEDS_BUDGET, (m) => embedCharacters(embedOf(m)));
  return { embeds: [embedOf(fitted)], allowed_mentions: { parse: [] } };
}
