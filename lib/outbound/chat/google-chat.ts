import { clip, fitFields, type LeadMessage, omittedWords } from "./message";

/**
 * A Google Chat space webhook's message: a card of cards v2
 * (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards), with no message
 * `text`: that text is Chat's own markup (`*bold*`, `<url|label>`, `<users/all>` pings everyone)
 * with no documented escape, so no submitted word goes there.
 *
 * Escaping: card texts take a small HTML subset (`<b>`, `<a href>`, `<font>`:
 * https://developers.google.com/workspace/chat/format-messages#card-formatting), so `&`, `<`, `>`
 * and `"` become entities: no tag, and so no disguised link, can be written.
 */

// Limits, https://developers.google.com/workspace/chat/limits and .../api/reference/rest/v1/cards:
/** "A message with cards... can't exceed 32,000 bytes" (the whole message): we stay 2 KB under. */
export const GOOGLE_CHAT_MESSAGE_MAX_BYTES = 32_000;
const GOOGLE_CHAT_BUDGET_BYTES = 30_000;
/** A card holds at most 100 widgets. */
export const GOOGLE_CHAT_WIDGETS_MAX = 100;
/** Header title and subtitle: short lines (the API truncates; we cut first). */
const HEADER_MAX = 200;

export const escapeGoogleChat = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** Cut first, then escape: an entity is never cut in half, and the cut (VALUE_MAX) keeps the bytes bounded. */
const html = (text: string, max: number) => escapeGoogleChat(clip(text, max));

const decorated = (topLabel: string, text: string) => ({ decoratedText: { topLabel, text, wrapText: true } });

function cardOf(message: LeadMessage) {
  const who = message.submitter;
  const about = [
    ...(message.grade ? [decorated("Lead grade", html(`${message.grade} (score ${message.score})`, 50))] : []),
    ...(who?.name ? [decorated("From", html(who.name, 200))] : []),
    ...(who?.email ? [decorated("Email", html(who.email, 254))] : []),
    ...(message.reference ? [decorated("Reference", html(message.reference, 100))] : []),
    ...(message.note ? [{ textParagraph: { text: html(message.note, 300) } }] : []),
  ];
  const fields = message.fields.map((f) => decorated(html(f.label, 100), html(f.value, 2000)));
  const omitted = message.omitted > 0 ? [{ textParagraph: { text: html(omittedWords(message.omitted), 300) } }] : [];
  const sections = [
    ...(about.length > 0 ? [{ widgets: about }] : []),
    ...(fields.length + omitted.length > 0 ? [{ header: "Fields", widgets: [...fields, ...omitted] }] : []),
    {
      widgets: [{ buttonList: { buttons: [{ text: message.linkLabel, onClick: { openLink: { url: message.link } } }] } }],
    },
  ];
  return {
    header: { title: html(message.title, HEADER_MAX), subtitle: html(message.formName, HEADER_MAX) },
    sections,
  };
}

const bodyOf = (message: LeadMessage, cardId: string) => ({ cardsV2: [{ cardId, card: cardOf(message) }] });

/** Widgets of a message: about 5, one per field, the "more" line and the button. */
const widgets = (m: LeadMessage) => m.fields.length + 8;

export function googleChatBody(message: LeadMessage, cardId: string) {
  const fitted = fitFields(message, GOOGLE_CHAT_BUDGET_BYTES, (m) =>
    widgets(m) > GOOGLE_CHAT_WIDGETS_MAX ? Number.POSITIVE_INFINITY : Buffer.byteLength(JSON.stringify(bodyOf(m, cardId))),
  );
  return bodyOf(fitted, cardId);
}
