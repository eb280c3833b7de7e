import type { Lead } from "../../../lib/leads";
import { escapeHtml, labelledFields, notificationEmail } from "../../../lib/notifications/email";
import type { Form } from "../../../lib/store/forms";
import type { StoredSubmission } from "../../../lib/store/submissions";

/** The notification email's content, without SES (lib/notifications/email.ts). */
const form = (overrides: Partial<Form> = {}): Form => ({
  id: "form_1",
  orgId: "org_1",
  siteId: "site_1",
  name: "Contact",
  origin: "builder",
  createdByWebhookId: null,
  status: "published",
  fields: {
    message: { label: "Your message", type: "textarea", required: false, order: 3 },
    email: { label: "Email", type: "email", required: true, order: 2 },
    name: { label: "Name", type: "name", required: true, order: 1 },
  },
  settings: { notifyEmails: ["sales@example.com", "ops@example.com"] },
  archivedAt: null,
  deletedAt: null,
  createdAt: "2026-11-22T00:00:00.000Z",
  updatedAt: "2026-11-22T00:00:00.000Z",
  ...overrides,
});

const submission = (overrides: Partial<StoredSubmission> = {}): StoredSubmission => ({
  id: "sub_1",
  orgId: "org_1",
  siteId: "site_1",
  formId: "form_1",
  webhookId: "wh_1",
  referenceId: "ACME-1042",
  data: { name: "Ada", email: "ada@example.com", message: "Line one\nLine two", extra: ["a", "b"] },
  metadata: { source: "generic", userAgent: null, referer: null, ip: "203.0.113.9", droppedFiles: [], ignoredFields: [] },
  spam: { score: 10, isSpam: false, signals: [] },
  isSpam: false,
  createdAt: "2026-11-22T00:00:01.000Z",
  ...overrides,
});

const lead: Lead = { score: 45, grade: "warm", reasons: ["business email domain (example.com)", "name given"] };

test("subject, recipients, fields in the form's order with labels, then the fields the form does not list", () => {
  const email = notificationEmail(submission(), form(), lead);
  expect(email.subject).toBe("New submission to Contact (ACME-1042)");
  expect(email.to).toEqual(["sales@example.com", "ops@example.com"]);
  expect(email.replyTo).toBeUndefined();
  expect(labelledFields(submission(), form()).map((f) => f.label)).toEqual(["Name", "Email", "Your message", "extra"]);
  expect(email.text).toBe(
    [
      "New submission to Contact",
      "Reference: ACME-1042",
      "Received: 2026-11-22T00:00:01.000Z",
      "",
      "Name: Ada",
      "Email: ada@example.com",
      "Your message:",
      "  Line one",
      "  Line two",
      "extra:",
      "  a",
      "  b",
      "",
      "Spam score: 10/100 (not spam)",
      "Lead: warm, 45/100",
      "  - business email domain (example.com)",
      "  - name given",
      "",
      "Submission sub_1 · form form_1",
    ].join("\n"),
  );
});

test("every submitted value, label and name is HTML-escaped in the HTML part", () => {
  const evil = `<img src=x onerror="alert('x')"> & co`;
  const email = notificationEmail(
    submission({ data: { [evil]: evil }, referenceId: "<ref>" }),
    form({ name: "<b>Form</b>", fields: {} }),
    { ...lead, reasons: ["<reason>"] },
  );
  const escaped = escapeHtml(evil);
  expect(escaped).toBe("&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co");
  expect(email.html).toContain(
    `<th style="padding:6px 12px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left;white-space:nowrap">${escaped}</th>`,
  );
  expect(email.html).toContain(`>${escaped}</td>`);
  expect(email.html).toContain("&lt;b&gt;Form&lt;/b&gt;");
  expect(email.html).toContain("&lt;ref&gt;");
  expect(email.html).toContain("<li>&lt;reason&gt;</li>");
  expect(email.html).not.toMatch(/<img|<b>|<ref>|<reason>/);
});

test("header values stay on one line; only a plain reply-to address is used", () => {
  const email = notificationEmail(
    submission({
      referenceId: "R-1\r\nBcc: victim@example.com",
      metadata: { ...submission().metadata, replyTo: "a@b.example\r\nBcc: x@y.example" },
    }),
    form({ name: "Contact\nform" }),
    lead,
  );
  expect(email.subject).toBe("New submission to Contact form (R-1 Bcc: victim@example.com)");
  expect(email.subject).not.toMatch(/[\r\n]/);
  expect(email.replyTo).toBeUndefined();
  for (const [replyTo, expected] of [
    ["ada@example.com", "ada@example.com"],
    ["  ada@example.com ", "ada@example.com"],
    ["Ada <ada@example.com>", undefined],
    ["a@example.com, b@example.com", undefined],
    ["not-an-address", undefined],
  ] as const) {
    const result = notificationEmail(submission({ metadata: { ...submission().metadata, replyTo } }), form(), lead);
    expect([replyTo, result.replyTo]).toEqual([replyTo, expected]);
  }
});

test("a released spam submission and a test lead say so", () => {
  const email = notificationEmail(
    submission({ spam: { score: 100, isSpam: true, signals: [] }, releasedAt: "2026-11-22T01:00:00.000Z" }),
    form(),
    { score: 60, grade: "cold", reasons: ["test lead (graded apart)"], test: true },
  );
  expect(email.text).toContain("Spam score: 100/100 (stored as spam, released by a moderator on 2026-11-22T01:00:00.000Z)");
  expect(email.text).toContain("Lead: cold, 60/100 (test lead)");
});

test("a submission without fields still says so", () => {
  const email = notificationEmail(submission({ data: {} }), form(), lead);
  expect(email.text).toContain("(no fields)");
  expect(email.html).toContain("(no fields)");
});
