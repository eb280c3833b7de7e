import { BODIES } from "../../../lib/outbound/chat/bodies";
import { changeMessage, DEFAULT_CHAT_OPTIONS, leadMessage, testMessage, VALUE_MAX } from "../../../lib/outbound/chat/message";
import { changeSummary } from "../../../lib/outbound/triage";
import type { Form } from "../../../lib/store/forms";
import type { DeliveryChange } from "../../../lib/store/outbound-deliveries";
import type { ChatKind, ChatOptions } from "../../../lib/store/outbound-endpoints";
import type { Lead } from "../../../lib/store/shapes";
import type { StoredSubmission } from "../../../lib/store/submissions";
import { chatSubmission } from "../../support/chat-fixtures";
import { platformProblems } from "../../support/chat-platforms";

/**
 * The chat messages of every platform, built from hostile and oversized submissions and checked
 * against what each platform accepts (test/support/chat-platforms.ts: its published structure and
 * limits; Microsoft's Adaptive Cards parser for Teams). The same checks run in the local
 * receivers the pipeline tests post to (test/local-stack/pipeline/chat-destinations.test.ts).
 */

const KINDS: ChatKind[] = ["slack", "teams", "discord", "google_chat"];
const BASE = "https://inlet.example";
const HOT: Lead = { score: 85, grade: "hot", reasons: ["business email domain"] };

const form = (fields: Form["fields"] = {}, name = "Contact"): Pick<Form, "name" | "fields"> => ({ name, fields });

const submission = chatSubmission;

const body = (
  kind: ChatKind,
  sub: StoredSubmission,
  f = form(),
  options: ChatOptions = DEFAULT_CHAT_OPTIONS,
  lead: Lead | null = HOT,
) => JSON.stringify(BODIES[kind](leadMessage(sub, f, lead, options, BASE), "dlv_6x6pKg6HlmtQA4jO3LqDjA"));

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every string of a JSON text is well formed UTF-16 (no half of a surrogate pair left by a cut). */
const wellFormed = (json: string) => {
  const walk = (v: unknown): boolean =>
    typeof v === "string"
      ? !LONE_SURROGATE.test(v)
      : Array.isArray(v)
        ? v.every(walk)
        : v && typeof v === "object"
          ? Object.values(v).every(walk)
          : true;
  return walk(JSON.parse(json));
};

const HOSTILE = [
  "<!channel> <!here> <!everyone> <@U024BE7LH> <!subteam^SAZ94GDB8>",
  "@everyone @here",
  "[bank.example](https://evil.example/login) <https://evil.example|bank.example>",
  '<a href="https://evil.example">bank.example</a> <b>bold</b> <users/all>',
  "<at>Ada</at> **bold** _italic_ ~~strike~~ `code` ||spoiler|| # heading\n- list\n1. numbered",
  "& &amp; &lt; > \\ \u0000 \u202e reversed",
].join("\n");

describe.each(KINDS)("a %s message", (kind) => {
  test("a 200-field submission of 10 KB values is valid for the platform, truncated, and says fields were left out", () => {
    const data: Record<string, string> = { name: "Ada Lovelace", email: "ada@analytical-engines.com" };
    // 10 KB values of markup and emoji, so cuts land inside entities, escapes and surrogate pairs.
    for (let i = 0; i < 198; i++) data[`field_${i}_${"x".repeat(80)}`] = `${"<&*_`[@😀".repeat(1000)}`.slice(0, 10_000);
    const json = body(kind, submission(data), form(), { ...DEFAULT_CHAT_OPTIONS, maxFields: 25 });
    expect(platformProblems(kind, json)).toEqual([]);
    expect(wellFormed(json)).toBe(true);
    expect(json).toMatch(/and \d+ more fields/);
    expect(json.length).toBeLessThan(40_000);
  });

  test("hostile values cannot ping, mention or disguise a link, in any field, label, name or form name", () => {
    const sub = submission({
      name: HOSTILE,
      email: "ada@analytical-engines.com",
      message: HOSTILE,
      [HOSTILE.slice(0, 90)]: HOSTILE,
    });
    const json = body(kind, sub, form({}, HOSTILE.slice(0, 100)));
    expect(platformProblems(kind, json)).toEqual([]);
  });

  test("the headline names the grade and the form; name, email, fields, reference and the link are in it", () => {
    const json = body(
      kind,
      submission({ message: "Hello there", email: "ada@analytical-engines.com", name: "Ada Lovelace", company: "Engines" }),
      form({ company: { label: "Company", type: "text", required: false, order: 1 } }),
    );
    expect(platformProblems(kind, json)).toEqual([]);
    for (const word of [
      "hot",
      "Contact",
      "Ada Lovelace",
      "ada@analytical-engines.com",
      "Company",
      "Engines",
      "Hello there",
      "ACME-1042",
    ]) {
      expect(json).toContain(word);
    }
    expect(json).toContain(`${BASE}/submissions/sub_6x6pKg6HlmtQA4jO3LqDjA`);
  });

  test("without field values: no name, email or value, only that a lead arrived and its link", () => {
    const json = body(
      kind,
      submission({ name: "Ada Lovelace", email: "ada@analytical-engines.com", phone: "+44 20 7946 0958" }),
      form(),
      { ...DEFAULT_CHAT_OPTIONS, includeFieldValues: false },
    );
    expect(platformProblems(kind, json)).toEqual([]);
    for (const secret of ["Lovelace", "ada@", "7946"]) expect(json).not.toContain(secret);
    expect(json).toContain(`${BASE}/submissions/sub_6x6pKg6HlmtQA4jO3LqDjA`);
  });

  test("a change message: the reference and the change in one line, escaped, with the link; no fields", () => {
    const change: DeliveryChange = {
      id: "chg_1",
      at: "2026-11-27T09:14:03.118Z",
      actor: { type: "member", id: "usr_1", name: HOSTILE.slice(0, 200) },
      changes: {
        status: { from: "new", to: "contacted" },
        ownerId: { from: null, to: "usr_2" },
        tags: { added: ["tag_1"], removed: ["tag_2"] },
      },
    };
    const summary = changeSummary(change, {
      memberNames: new Map([["usr_2", "Ana <!here>"]]),
      tagNames: new Map([
        ["tag_1", "vip <@U024BE7LH>"],
        ["tag_2", "cold"],
      ]),
    });
    const sub = submission({ name: "Ada Lovelace", email: "ada@analytical-engines.com", message: "Hello there" });
    const build = (options: ChatOptions) =>
      JSON.stringify(BODIES[kind](changeMessage(sub, form(), HOT, options, BASE, summary), "dlv_x"));
    const json = build(DEFAULT_CHAT_OPTIONS);
    expect(platformProblems(kind, json)).toEqual([]);
    for (const word of ["Lead updated", "Contact", "ACME-1042", "new → contacted", "Ada Lovelace"]) expect(json).toContain(word);
    expect(json).not.toContain("Hello there");
    expect(json).toContain(`${BASE}/submissions/sub_6x6pKg6HlmtQA4jO3LqDjA`);
    const bare = build({ ...DEFAULT_CHAT_OPTIONS, includeFieldValues: false });
    expect(platformProblems(kind, bare)).toEqual([]);
    expect(bare).toContain("new → contacted");
    for (const secret of ["Lovelace", "ada@"]) expect(bare).not.toContain(secret);
  });

  test("the test message is valid and links to the form's destinations", () => {
    const json = JSON.stringify(BODIES[kind](testMessage({ formId: "form_1" }, { name: "Contact" }, BASE), "dlv_x"));
    expect(platformProblems(kind, json)).toEqual([]);
    expect(json).toContain(`${BASE}/forms/form_1/webhooks`);
  });
});

describe("a change's summary", () => {
  const at = "2026-11-27T09:14:03.118Z";
  const names = {
    memberNames: new Map([["usr_ana", "Ana"]]),
    tagNames: new Map([
      ["tag_vip", "vip"],
      ["tag_cold", "cold"],
    ]),
  };
  test("status, owner and tags in one line, by whom", () => {
    const change: DeliveryChange = {
      id: "chg_1",
      at,
      actor: { type: "member", id: "usr_ben", name: "Ben" },
      changes: {
        status: { from: "new", to: "contacted" },
        ownerId: { from: null, to: "usr_ana" },
        tags: { added: ["tag_vip", "tag_gone"], removed: ["tag_cold"] },
      },
    };
    expect(changeSummary(change, names)).toBe("new → contacted · owner: Ana · tags +vip −cold — by Ben");
  });
  test("unassigned, a former member, only deleted tags, an unnamed API key", () => {
    const actor = { type: "api_key" as const, id: "key_1", name: "" };
    expect(changeSummary({ id: "chg_2", at, actor, changes: { ownerId: { from: "usr_ana", to: null } } }, names)).toBe(
      "owner: nobody — by an API key",
    );
    expect(changeSummary({ id: "chg_3", at, actor, changes: { ownerId: { from: null, to: "usr_left" } } }, names)).toBe(
      "owner: a former member — by an API key",
    );
    expect(changeSummary({ id: "chg_4", at, actor, changes: { tags: { added: ["tag_gone"], removed: [] } } }, names)).toBe(
      "updated — by an API key",
    );
    // A key's name at the time of the change; entries written before it was recorded say only "API key".
    const named = { type: "api_key" as const, id: "key_1", name: "CRM sync" };
    expect(changeSummary({ id: "chg_5", at, actor: named, changes: { status: { from: "new", to: "won" } } }, names)).toBe(
      "new → won — by API key CRM sync",
    );
    const legacy = { ...named, name: "API key" };
    expect(changeSummary({ id: "chg_6", at, actor: legacy, changes: { status: { from: "new", to: "won" } } }, names)).toBe(
      "new → won — by an API key",
    );
  });
});

describe("the neutral message", () => {
  test("fields follow the form's order, at most maxFields, name and email apart; values are cut to VALUE_MAX", () => {
    const message = leadMessage(
      submission({
        z: "last",
        email: "ada@analytical-engines.com",
        first_name: "Ada",
        last_name: "Lovelace",
        a: "x".repeat(5000),
        b: "2",
      }),
      form({
        z: { label: "Zed", type: "text", required: false, order: 0 },
        b: { label: "Bee", type: "text", required: false, order: 1 },
      }),
      HOT,
      { ...DEFAULT_CHAT_OPTIONS, maxFields: 2 },
      BASE,
    );
    expect(message.submitter).toEqual({ name: "Ada Lovelace", email: "ada@analytical-engines.com" });
    expect(message.fields.map((f) => f.label)).toEqual(["Zed", "Bee"]);
    expect(message.omitted).toBe(1);
    const all = leadMessage(submission({ a: "x".repeat(5000) }), form(), null, DEFAULT_CHAT_OPTIONS, BASE);
    expect(all.fields[0]?.value.length).toBe(VALUE_MAX);
    expect(all.title).toBe("New submission");
  });

  test("a test lead says so", () => {
    const message = leadMessage(
      submission({ a: "1" }),
      form(),
      { score: 80, grade: "cold", reasons: [], test: true },
      DEFAULT_CHAT_OPTIONS,
      BASE,
    );
    expect(message.title).toBe("New cold lead (test lead)");
  });
});
