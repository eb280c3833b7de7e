import { withDisplayName } from "../../../lib/aws/ses";
import {
  cameFrom,
  confirmationEmail,
  DEFAULT_CONFIRMATION,
  fillPlaceholders,
  submitterAddress,
  submitterName,
} from "../../../lib/notifications/confirmation";
import type { Form } from "../../../lib/store/forms";

/** The confirmation email's pure rules (lib/notifications/confirmation.ts): many cases, no SES. */

const fields: Form["fields"] = {
  full_name: { label: "Name", type: "name", required: false, order: 2 },
  work_email: { label: "Email", type: "email", required: false, order: 1 },
  company_name: { label: "Company", type: "text", required: false, order: 3 },
};
const form = { fields };
const submission = (data: Record<string, string | string[]>, replyTo?: string) => ({
  data,
  metadata: {
    source: "generic",
    userAgent: null,
    referer: null,
    ip: "192.0.2.1",
    droppedFiles: [],
    ignoredFields: [],
    ...(replyTo ? { replyTo } : {}),
  },
});

describe("the address a confirmation goes to", () => {
  test.each([
    ["`_replyto` first, lower-cased", submission({ work_email: "b@example.com" }, "A@Example.com"), "a@example.com"],
    ["an email-typed field", submission({ work_email: "Ada@Example.com" }), "ada@example.com"],
    ["a key that names an email, when no typed field has one", submission({ email: "k@example.com" }), "k@example.com"],
    ["the first value of a repeated field", submission({ work_email: ["x@example.com", "y@example.com"] }), "x@example.com"],
    [
      "a `_replyto` with a display name is passed over",
      submission({ work_email: "b@example.com" }, "Eve <e@example.com>"),
      "b@example.com",
    ],
    ["none: not an address", submission({ work_email: "not an address" }), undefined],
    ["none: a list", submission({ work_email: "a@example.com, b@example.com" }), undefined],
    ["none: a header's worth", submission({ work_email: "a@example.com\r\nBcc: b@example.com" }), undefined],
    ["none: an unrelated field's address", submission({ company_name: "c@example.com" }), undefined],
  ])("%s", (_, s, expected) => {
    expect(submitterAddress(s, form)).toBe(expected);
  });
});

describe("{name}", () => {
  test.each([
    ["Ada Lovelace", "Ada Lovelace"],
    ["  Ada\r\n  Lovelace\t", "Ada Lovelace"],
    ["Zoë O'Brien-Smith & Co", "Zoë O'Brien-Smith & Co"],
    ["Dr. J. R. R. Tolkien", "Dr. J. R. R. Tolkien"],
    ["Eve <script>", ""],
    ['Eve "quoted"', ""],
    ["eve@example.com", ""],
    ["Visit https://spam.example", ""],
    ["Cheap pills at www.pills", ""],
    ["Buy at pills.example now", ""],
    ["Back\\slash", ""],
    ["x".repeat(61), ""],
    ["x".repeat(60), "x".repeat(60)],
  ])("%j → %j", (value, expected) => {
    expect(submitterName({ data: { full_name: value } }, form)).toBe(expected);
  });

  test("a key such as `first_name` when no field is typed as a name; never `company_name`", () => {
    expect(submitterName({ data: { first_name: "Ada" } }, { fields: {} })).toBe("Ada");
    expect(submitterName({ data: { company_name: "Acme" } }, { fields: {} })).toBe("");
  });
});

describe("came from the site's domain (the recorded Referer)", () => {
  test.each([
    ["https://example.com/contact", true],
    ["https://www.example.com/contact?x=1", true],
    ["http://shop.EXAMPLE.com/", true],
    ["https://example.com.evil.example/contact", false],
    ["https://notexample.com/", false],
    ["https://evil.example/?ref=example.com", false],
    ["javascript:alert(1)//example.com", false],
    ["ftp://example.com/", false],
    ["not a url", false],
    [null, false],
  ])("%s → %s", (referer, expected) => {
    expect(cameFrom(referer, "example.com")).toBe(expected);
  });
});

describe("placeholders", () => {
  const values = { name: "Ada", reference: "ACME-7", form: "Contact" };
  test.each([
    ["Hi {name}, thanks ({reference}) for {form}.", values, "Hi Ada, thanks (ACME-7) for Contact."],
    ["Hi {name}, thanks.", { ...values, name: "" }, "Hi, thanks."],
    ["{name}{name}", values, "AdaAda"],
    ["Keep {unknown} and {{name}} braces", values, "Keep {unknown} and {Ada} braces"],
    ["A $& or $1 in a value is literal", { ...values, name: "$&" }, "A $& or $1 in a value is literal"],
  ])("%j", (template, v, expected) => {
    expect(fillPlaceholders(template, v)).toBe(expected);
  });

  test("a value with `$&` is put in literally, not as a replacement pattern", () => {
    expect(fillPlaceholders("Hi {name} from {form}", { name: "$&$'", reference: "R", form: "$`" })).toBe("Hi $&$' from $`");
  });
});

describe("the email", () => {
  const settings = {
    ...DEFAULT_CONFIRMATION,
    enabled: true,
    subject: "Re: {form} <{reference}>",
    message: "Hi {name},\n\n<b>{form}</b> & us.\nLine two",
  };
  const email = confirmationEmail(
    settings,
    { name: "Ada", reference: "R-1", form: 'The "<Form>"' },
    "a@example.com",
    "example.com",
  );

  test("the subject is one line, placeholders filled as text (the API escapes nothing there, SES encodes it)", () => {
    expect(email.subject).toBe('Re: The "<Form>" <R-1>');
  });
  test("the HTML part escapes the owner's text and the values alike; paragraphs and line breaks kept", () => {
    expect(email.html).toContain(
      '<p style="margin:0 0 12px">&lt;b&gt;The &quot;&lt;Form&gt;&quot;&lt;/b&gt; &amp; us.<br>Line two</p>',
    );
    expect(email.html).not.toContain("<b>");
  });
  test("it says why the address got it, and is marked as automatic", () => {
    expect(email.text).toContain('entered in the form "The "<Form>"" on example.com');
    expect(email.headers).toEqual({ "Auto-Submitted": "auto-generated" });
    expect(email.to).toEqual(["a@example.com"]);
    expect(email).not.toHaveProperty("replyTo");
    expect(email).not.toHaveProperty("fromName");
  });
  test("a subject that would be too long is cut at 200 characters", () => {
    const long = confirmationEmail(
      { ...settings, subject: "{form}" },
      { name: "", reference: "R", form: "x".repeat(300) },
      "a@example.com",
      "example.com",
    );
    expect(long.subject).toHaveLength(200);
  });
});

describe("the sender's display name (RFC 2047 encoded-words)", () => {
  const decode = (header: string) => {
    const words = header.replace(/ <[^<>]+>$/, "").split(" ");
    return {
      words,
      name: words.map((w) => Buffer.from(/^=\?UTF-8\?B\?(.+)\?=$/.exec(w)?.[1] ?? "", "base64").toString("utf8")).join(""),
    };
  };
  test.each([
    "Acme Support",
    'Eve "<evil@example.com>", Bcc: x@y.example',
    "Line\r\nBreak",
    "Zoë's Café — Support",
    "客服中心".repeat(16),
    "😀".repeat(16),
  ])("%j is data: decodes back, each word at most 75 characters of whole characters", (name) => {
    const header = withDisplayName(name, "Inlet <notifications@inlet.example>");
    expect(header.endsWith(" <notifications@inlet.example>")).toBe(true);
    const { words, name: decoded } = decode(header);
    expect(decoded).toBe(name);
    for (const word of words) {
      expect(word.length).toBeLessThanOrEqual(75);
      expect(Buffer.from(/\?B\?(.+)\?=/.exec(word)?.[1] ?? "", "base64").toString("utf8")).not.toContain("\uFFFD");
    }
    expect(header).not.toMatch(/[\r\n"]/);
  });
  test("a bare sender address is used as it is", () => {
    expect(withDisplayName("A", "forms@example.com")).toBe("=?UTF-8?B?QQ==?= <forms@example.com>");
  });
});
