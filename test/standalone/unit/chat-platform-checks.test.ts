import { BODIES } from "../../../lib/outbound/chat/bodies";
import { DEFAULT_CHAT_OPTIONS, leadMessage } from "../../../lib/outbound/chat/message";
import type { ChatKind } from "../../../lib/store/outbound-endpoints";
import { chatSubmission } from "../../support/chat-fixtures";
import { GOOGLE_CHAT_MAX_BYTES, platformProblems, TEAMS_MAX_BYTES } from "../../support/chat-platforms";

/**
 * The checker the chat tests rely on (test/support/chat-platforms.ts) catches what each platform
 * would refuse or what would ping a channel: a valid message of each platform, as Inlet builds
 * it, broken one way at a time, must be reported. Without this, its `[]` in the message and
 * pipeline tests could be a checker that never complains.
 */

const SUBMISSION = chatSubmission({ name: "Ada Lovelace", email: "ada@analytical-engines.com", message: "Hello there" });

/** A valid message of `kind`, as a plain object to break. */
const valid = (kind: ChatKind): any =>
  JSON.parse(
    JSON.stringify(
      BODIES[kind](
        leadMessage(
          SUBMISSION,
          { name: "Contact", fields: {} },
          { score: 85, grade: "hot", reasons: [] },
          DEFAULT_CHAT_OPTIONS,
          "https://inlet.example",
        ),
        "dlv_6x6pKg6HlmtQA4jO3LqDjA",
      ),
    ),
  );

test.each(["slack", "teams", "discord", "google_chat"] as const)("the %s message these cases start from is valid", (kind) => {
  expect(platformProblems(kind, JSON.stringify(valid(kind)))).toEqual([]);
});

type Case = [what: string, kind: ChatKind, breakIt: (body: any) => void, reported: RegExp];

const section = (text: string) => ({ type: "section", text: { type: "plain_text", text } });
const field = (i: number) => ({ name: `Field ${i}`, value: "value" });
const widget = (text: string) => ({ decoratedText: { topLabel: "Field", text } });

const CASES: Case[] = [
  // Slack Block Kit
  [
    "Slack: a header over 150 characters",
    "slack",
    (b) => (b.blocks[0].text.text = "h".repeat(151)),
    /\/blocks\/0\/text\/text must NOT have more than 150/,
  ],
  [
    "Slack: a section text over 3000 characters",
    "slack",
    (b) => b.blocks.push(section("s".repeat(3001))),
    /must NOT have more than 3000/,
  ],
  [
    "Slack: a block of an unknown type",
    "slack",
    (b) => b.blocks.push({ type: "carousel", text: "x" }),
    /\/blocks\/4 must match exactly one schema/,
  ],
  [
    "Slack: a section field over 2000 characters",
    "slack",
    (b) => (b.blocks[2].fields[0].text = "f".repeat(2001)),
    /fields\/0\/text must NOT have more than 2000/,
  ],
  [
    "Slack: 11 fields in a section",
    "slack",
    (b) => (b.blocks[2].fields = Array.from({ length: 11 }, () => ({ type: "plain_text", text: "f" }))),
    /fields must NOT have more than 10 items/,
  ],
  [
    "Slack: 51 blocks",
    "slack",
    (b) => b.blocks.push(...Array.from({ length: 47 }, () => section("s"))),
    /\/blocks must NOT have more than 50 items/,
  ],
  [
    "Slack: blocks of 14,500 characters, each within its own limit",
    "slack",
    (b) => b.blocks.push(...Array.from({ length: 5 }, () => section("s".repeat(2900)))),
    /msg_blocks_too_long/,
  ],
  [
    "Slack: a channel ping in a text",
    "slack",
    (b) => (b.blocks[1].text.text = "Hi <!channel>"),
    /blocks\[1\]\.text\.text: an unescaped < or >/,
  ],
  [
    "Slack: a disguised link in mrkdwn",
    "slack",
    (b) => (b.blocks[3].elements[1].text = "<https://evil.example|bank> <https://x.example|y>"),
    /an unescaped < or >/,
  ],
  ["Slack: an unescaped &", "slack", (b) => (b.blocks[1].text.text = "Tom & Jerry"), /an unescaped &/],
  // Discord embeds
  [
    "Discord: 26 embed fields",
    "discord",
    (b) => (b.embeds[0].fields = Array.from({ length: 26 }, (_, i) => field(i))),
    /\/embeds\/0\/fields must NOT have more than 25 items/,
  ],
  [
    "Discord: a field value over 1024 characters",
    "discord",
    (b) => (b.embeds[0].fields[0].value = "v".repeat(1025)),
    /fields\/0\/value must NOT have more than 1024/,
  ],
  [
    "Discord: a title over 256 characters",
    "discord",
    (b) => (b.embeds[0].title = "t".repeat(257)),
    /\/embeds\/0\/title must NOT have more than 256/,
  ],
  [
    "Discord: embeds over 6000 characters in all, each within its own limit",
    "discord",
    (b) => {
      b.embeds[0].description = "d".repeat(4000);
      b.embeds[0].fields = Array.from({ length: 3 }, (_, i) => ({ name: `F${i}`, value: "v".repeat(1000) }));
    },
    /embeds hold \d+ characters/,
  ],
  [
    "Discord: mentions allowed",
    "discord",
    (b) => (b.allowed_mentions.parse = ["everyone"]),
    /\/allowed_mentions\/parse must NOT have more than 0 items/,
  ],
  ["Discord: @everyone in a value", "discord", (b) => (b.embeds[0].fields[0].value = "hi @everyone"), /@everyone or @here/],
  [
    "Discord: a masked link",
    "discord",
    (b) => (b.embeds[0].description = "[bank.example](https://evil.example)"),
    /a masked link/,
  ],
  ["Discord: a user mention", "discord", (b) => (b.embeds[0].description = "<@80351110224678912>"), /a mention/],
  // Teams: the Workflows envelope and the Adaptive Card inside it
  [
    "Teams: an element type that does not exist",
    "teams",
    (b) => b.attachments[0].content.body.push({ type: "Marquee", text: "x" }),
    /card: .*Marquee/i,
  ],
  [
    "Teams: an element where only an inline may be",
    "teams",
    (b) => b.attachments[0].content.body[0].inlines.push({ type: "Image", url: "https://x.example/a.png" }),
    /card: the parser refused it: RichTextBlock.addInline/,
  ],
  [
    "Teams: an inline that is neither a TextRun nor a string",
    "teams",
    (b) => b.attachments[0].content.body[0].inlines.push(42),
    /inlines\/2 must match a schema in anyOf/,
  ],
  [
    "Teams: a TextRun without its text",
    "teams",
    (b) => delete b.attachments[0].content.body[1].inlines[0].text,
    /inlines\/0 must match a schema in anyOf/,
  ],
  [
    "Teams: a separator that is not a boolean",
    "teams",
    (b) => (b.attachments[0].content.body[2].separator = "yes"),
    /body\/2\/separator must be boolean/,
  ],
  [
    "Teams: a body that is not a list",
    "teams",
    (b) => (b.attachments[0].content.body = "New lead"),
    /content\/body must be array/,
  ],
  [
    "Teams: an invalid property value",
    "teams",
    (b) => (b.attachments[0].content.body[0].inlines[0].weight = "heavy"),
    /card: .*heavy/i,
  ],
  ["Teams: an action without its required url", "teams", (b) => delete b.attachments[0].content.actions[0].url, /card: /],
  [
    "Teams: a card version Teams does not render",
    "teams",
    (b) => (b.attachments[0].content.version = "1.6"),
    /\/attachments\/0\/content\/version must be equal to one of the allowed values/,
  ],
  [
    "Teams: a legacy connector card instead of an Adaptive Card",
    "teams",
    (b) => (b.attachments[0].contentType = "application/vnd.microsoft.teams.card.o365connector"),
    /contentType must be equal to constant/,
  ],
  [
    "Teams: over 28 KB",
    "teams",
    (b) => b.attachments[0].content.body[1].inlines.push({ type: "TextRun", text: "x".repeat(TEAMS_MAX_BYTES) }),
    /\d+ bytes/,
  ],
  [
    "Teams: a mention entity",
    "teams",
    (b) =>
      (b.attachments[0].content.msteams.entities = [
        { type: "mention", text: "<at>Ada</at>", mentioned: { id: "x", name: "Ada" } },
      ]),
    /msteams\.entities \(a mention\)/,
  ],
  [
    "Teams: a TextBlock (Markdown) holding text",
    "teams",
    (b) => b.attachments[0].content.body.push({ type: "TextBlock", text: "[bank](https://evil.example)" }),
    /a TextBlock or FactSet/,
  ],
  // Google Chat cards v2
  [
    "Google Chat: over 32,000 bytes",
    "google_chat",
    (b) => b.cardsV2[0].card.sections[1].widgets.push(widget("é".repeat(GOOGLE_CHAT_MAX_BYTES / 2))),
    /^\d+ bytes$/,
  ],
  [
    "Google Chat: a widget that does not exist",
    "google_chat",
    (b) => b.cardsV2[0].card.sections[1].widgets.push({ carousel: { items: [] } }),
    /\/widgets\/1 must match exactly one schema/,
  ],
  [
    "Google Chat: over 100 widgets",
    "google_chat",
    (b) => b.cardsV2[0].card.sections[1].widgets.push(...Array.from({ length: 100 }, () => widget("w"))),
    /^\d+ widgets$/,
  ],
  [
    "Google Chat: an HTML tag in a text",
    "google_chat",
    (b) => (b.cardsV2[0].card.sections[0].widgets[1].decoratedText.text = '<a href="https://evil.example">bank</a>'),
    /a < or > \(an HTML tag\)/,
  ],
  [
    "Google Chat: a card without sections",
    "google_chat",
    (b) => (b.cardsV2[0].card.sections = []),
    /sections must NOT have fewer than 1 items/,
  ],
];

test.each(CASES)("%s is reported", (_what, kind, breakIt, reported) => {
  const body = valid(kind);
  breakIt(body);
  const problems = platformProblems(kind, JSON.stringify(body));
  expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(reported)]));
});

test("a body that is not JSON is reported", () => {
  expect(platformProblems("slack", "{not json")).toEqual(["the body is not JSON"]);
});
