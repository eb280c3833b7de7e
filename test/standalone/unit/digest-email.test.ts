import type { DigestContent, DigestLead } from "../../../lib/digests/collect";
import { digestEmail, digestSubject, periodLabel } from "../../../lib/digests/email";

/** A digest as an email, without SES (lib/digests/email.ts). */

const lead = (overrides: Partial<DigestLead> = {}): DigestLead => ({
  submissionId: "sub_1",
  formName: "Contact",
  reference: "ACME-1042",
  receivedAt: "2026-05-11T07:14:00.000Z",
  grade: "hot",
  score: 85,
  test: false,
  name: "Ada Lovelace",
  email: "ada@example.com",
  link: "https://inlet.example/submissions/sub_1",
  ...overrides,
});

const content = (overrides: Partial<DigestContent> = {}): DigestContent => ({
  cadence: "daily",
  period: { from: "2026-05-11", to: "2026-05-11" },
  totals: { inbox: 3, spam: 2 },
  forms: [{ formId: "form_1", name: "Contact", siteName: "Acme", inbox: 3, link: "https://inlet.example/forms/form_1" }],
  quietForms: 1,
  sites: [{ siteId: "site_1", name: "Acme", inbox: 3, spam: 2, link: "https://inlet.example/sites/site_1" }],
  grades: { hot: 1, warm: 1, cold: 1, ungraded: 0, counted: 3 },
  newest: [lead(), lead({ submissionId: "sub_2", reference: "ACME-1043", grade: "cold", score: 10 })],
  hottest: [lead()],
  failing: [],
  truncated: false,
  ...overrides,
});

const input = (c: DigestContent) => ({
  content: c,
  to: "member@example.com",
  zone: "Europe/Paris",
  settingsLink: "https://inlet.example/settings/account#notifications",
});

test("subject: the cadence, the counts and the UTC days, never user text", () => {
  expect(digestSubject(content())).toBe("Daily digest: 3 new submissions, 1 hot (11 May)");
  expect(digestSubject(content({ cadence: "weekly", period: { from: "2026-05-04", to: "2026-05-10" } }))).toBe(
    "Weekly digest: 3 new submissions, 1 hot (4 May – 10 May)",
  );
  const quiet = { totals: { inbox: 0, spam: 0 }, grades: { hot: 0, warm: 0, cold: 0, ungraded: 0, counted: 0 } };
  expect(digestSubject(content({ ...quiet, failing: [failing()] }))).toBe("Daily digest: 1 failing endpoint (11 May)");
  expect(digestSubject(content({ ...quiet, totals: { inbox: 0, spam: 1 } }))).toBe(
    "Daily digest: 1 spam submission caught (11 May)",
  );
  expect(periodLabel({ from: "2026-12-28", to: "2027-01-03" })).toBe("28 Dec – 3 Jan");
});

function failing(): DigestContent["failing"][number] {
  return {
    formName: "Contact",
    kind: "slack",
    target: "#sales",
    status: "retrying",
    error: "HTTP 500",
    statusCode: 500,
    failingSince: "2026-05-11T10:00:00.000Z",
    isEnabled: true,
    link: "https://inlet.example/forms/form_1/webhooks/ep_1",
  };
}

test("the text part: counts, grades, forms, the hottest and newest with links and local times, failures, the way out", () => {
  const email = digestEmail(input(content({ failing: [failing()] })));
  expect(email.to).toEqual(["member@example.com"]);
  expect(email.text).toContain("Daily digest for 11 May (UTC)");
  expect(email.text).toContain("New submissions: 3\nSpam caught: 2\nGrades: 1 hot, 1 warm, 1 cold");
  expect(email.text).toContain("  Contact (Acme): 3  https://inlet.example/forms/form_1");
  expect(email.text).toContain("1 other form: nothing new.");
  // 07:14 UTC is 09:14 in Paris in May.
  expect(email.text).toContain(
    "Hottest leads:\n  ACME-1042 · Contact · hot 85 · Ada Lovelace · ada@example.com · Mon 11 May, 09:14\n    https://inlet.example/submissions/sub_1",
  );
  expect(email.text).toContain("  ACME-1043 · Contact · cold 10 ·");
  expect(email.text).toContain("Failing now:\n  slack #sales (Contact): HTTP 500, failing since Mon 11 May, 12:00");
  expect(email.text).toContain("https://inlet.example/settings/account#notifications");
  expect(email.html).toContain('href="https://inlet.example/settings/account#notifications"');
});

test("grades read from a sample say so", () => {
  const email = digestEmail(
    input(content({ totals: { inbox: 312, spam: 0 }, grades: { hot: 4, warm: 10, cold: 30, ungraded: 6, counted: 50 } })),
  );
  expect(email.text).toContain("Grades: 4 hot, 10 warm, 30 cold, 6 not graded yet (of the newest 50 of 312)");
});

test("names are text: escaped in the HTML part, a link cannot be forged", () => {
  const hostile = '<a href="https://evil.example">bank</a> & "quotes"';
  const email = digestEmail(
    input(
      content({
        forms: [
          { formId: "form_1", name: hostile, siteName: "<b>site</b>", inbox: 3, link: "https://inlet.example/forms/form_1" },
        ],
        newest: [lead({ name: hostile, formName: hostile })],
      }),
    ),
  );
  expect(email.html).not.toContain('<a href="https://evil.example">');
  expect(email.html).not.toContain("<b>site</b>");
  expect(email.html).toContain("&lt;a href=&quot;https://evil.example&quot;&gt;bank&lt;/a&gt; &amp; &quot;quotes&quot;");
  expect(email.subject).not.toContain("evil");
});
