import { randomUUID } from "node:crypto";
import { loadConfig } from "../../../lib/config";
import { readAction } from "../../../lib/store/actions";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { storedItem, submitTo } from "../../support/submissions";
import { emailsTo, HOT_LEAD, notifyingForm, rawItem, recipient, waitForEmails } from "./support/emails";

/**
 * The whole path through the local stack: intake endpoint → table → stream follower → queue →
 * poller → consumer → SES emulator. Each test has its own recipient, so it counts only its own
 * emails in the emulator's store.
 */
const subPath = (id: string) => `/api/v1/submissions/${id}`;

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("notify");
  siteId = await createSite(owner, "Notify site");
});

/** A honeypot hit: intake stores it as spam (docs/spam.md). */
const spamData = (tag: string) => ({ ...HOT_LEAD, message: `${HOT_LEAD.message} ${tag}`, _hp: "I am a bot" });

describe("notification emails", () => {
  test("a submission through the intake endpoint ends with exactly one email and its lead stored", async () => {
    const to = recipient();
    const cc = recipient("second");
    const { formId, hook } = await notifyingForm(owner, siteId, [to, cc]);
    const tag = randomUUID();
    const sent = await submitTo(hook, {
      ...HOT_LEAD,
      message: `${HOT_LEAD.message} ${tag}`,
      _replyto: "ada@analytical-engines.example.com",
    });

    const emails = await waitForEmails(to);
    expect(emails).toHaveLength(1);
    const email = emails[0]!;
    // One email to every address of the form's notifyEmails.
    expect(email.destination.to).toEqual([to, cc]);
    expect(email.from).toBe(loadConfig().NOTIFY_FROM);
    expect(email.replyTo).toEqual(["ada@analytical-engines.example.com"]);
    expect(email.subject).toBe(`New submission to Quote <request> & more (${sent.referenceId})`);

    const stored = await storedItem(sent.submissionId);
    expect(stored?.lead).toEqual({
      score: 85,
      grade: "hot",
      reasons: [
        "business email domain (analytical-engines.example.com)",
        "plausible phone number",
        "company given",
        "detailed message",
        "name given",
      ],
    });

    // HTML part: every submitted value escaped, never markup.
    const html = email.body.html ?? "";
    expect(html).toContain("Ada &lt;b&gt;Lovelace&lt;/b&gt;");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Analytical Engines &amp; Sons");
    expect(html).toContain("Quote &lt;request&gt; &amp; more");
    expect(html).not.toMatch(/<script|<b>Lovelace/);
    expect(html).toContain("<th");
    expect(html).toContain("Full name");

    // Plain-text part: the fields with their labels, the spam score, the lead.
    const text = email.body.text ?? "";
    expect(text).toContain(`Reference: ${sent.referenceId}`);
    expect(text).toContain("Full name: Ada <b>Lovelace</b>");
    expect(text).toContain("Email: ada@analytical-engines.example.com");
    expect(text).toContain("Phone: +1 650 555 0123");
    expect(text).toContain(`Message: ${HOT_LEAD.message} ${tag}`);
    expect(text).toContain(`Spam score: ${stored?.spam.score}/100 (not spam)`);
    expect(text).toContain("Lead: hot, 85/100");
    expect(text).toContain("  - business email domain (analytical-engines.example.com)");
    expect(text).toContain(`Submission ${sent.submissionId} · form ${formId}`);

    // The email's claim is done; the detail shows the lead.
    expect(await readAction(sent.submissionId, "notify")).toMatchObject({ status: "done" });
    const detail = await api("GET", subPath(sent.submissionId), { token: owner.token });
    expect(detail.body.data.submission.lead).toEqual(stored?.lead);
  });

  test("characters beyond the Basic Multilingual Plane (emoji) travel the whole way", async () => {
    const to = recipient();
    const { hook } = await notifyingForm(owner, siteId, [to]);
    const sent = await submitTo(hook, {
      name: "Zoë 👍",
      email: "zoe@example.com",
      message: `𝒜 quote, please 🙏 ${randomUUID()}`,
    });
    const emails = await waitForEmails(to);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain(sent.referenceId);
    expect(emails[0]?.body.text).toContain("Full name: Zoë 👍");
    expect(emails[0]?.body.html).toContain("𝒜 quote, please 🙏");
  });

  test("a form without notifyEmails sends nothing, but its submissions are still qualified", async () => {
    const { hook } = await notifyingForm(owner, siteId, []);
    const sent = await submitTo(hook, { email: "someone@gmail.com", message: randomUUID() });
    const deadline = Date.now() + 15_000;
    while (!(await storedItem(sent.submissionId))?.lead && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect((await storedItem(sent.submissionId))?.lead).toEqual({
      score: 10,
      grade: "cold",
      reasons: ["free-mail address (gmail.com)"],
    });
    expect(await readAction(sent.submissionId, "notify")).toBeUndefined();
  });

  test("a spam submission sends nothing and gets no lead", async () => {
    const to = recipient();
    const { hook } = await notifyingForm(owner, siteId, [to]);
    const spam = await submitTo(hook, spamData(randomUUID()));
    expect((await storedItem(spam.submissionId))?.isSpam).toBe(true);
    // A later good submission of the same form is the barrier: the stream delivers in order, so
    // once its email is there the spam one has been passed over.
    const good = await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
    const emails = await waitForEmails(to);
    expect(emails.map((e) => e.subject)).toEqual([expect.stringContaining(good.referenceId)]);
    expect((await storedItem(spam.submissionId))?.lead).toBeUndefined();
    expect(await readAction(spam.submissionId, "notify")).toBeUndefined();
  });
});

describe("release from spam", () => {
  test("unflagging sends exactly one email; unflagging again (after a re-flag) sends nothing more", async () => {
    const to = recipient();
    const { hook } = await notifyingForm(owner, siteId, [to]);
    const spam = await submitTo(hook, spamData(randomUUID()));

    const unflag = await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: false } });
    expect(unflag.status).toBe(200);
    const releasedAt = unflag.body.data.submission.releasedAt as string;
    expect(releasedAt).toEqual(expect.any(String));
    // The release marker whose INSERT carried the submission into the pipeline.
    expect(await rawItem(keys.release(spam.submissionId))).toMatchObject({ type: "release", submissionId: spam.submissionId });

    const emails = await waitForEmails(to);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain(spam.referenceId);
    expect(emails[0]?.body.text).toContain(`(stored as spam, released by a moderator on ${releasedAt})`);
    expect((await storedItem(spam.submissionId))?.lead?.grade).toBe("hot");

    // Flag and unflag twice more: the pipeline already took it up, nothing is sent again.
    for (let i = 0; i < 2; i++) {
      expect((await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: true } })).status).toBe(200);
      const again = await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam: false } });
      expect(again.body.data.submission.releasedAt).toBe(releasedAt);
    }
    expect(await waitForEmails(to)).toHaveLength(1);
  });

  test("unflagged twice in a row before the pipeline gets to it: still one email", async () => {
    const to = recipient();
    const { hook } = await notifyingForm(owner, siteId, [to]);
    const spam = await submitTo(hook, spamData(randomUUID()));
    for (const isSpam of [false, true, false]) {
      expect((await api("PUT", subPath(spam.submissionId), { token: owner.token, body: { isSpam } })).status).toBe(200);
    }
    const emails = await waitForEmails(to);
    expect(emails).toHaveLength(1);
    expect(emails[0]?.subject).toContain(spam.referenceId);
  });

  test("a submission flagged after it was processed is not released again when unflagged", async () => {
    const to = recipient();
    const { hook } = await notifyingForm(owner, siteId, [to]);
    const sent = await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
    expect(await waitForEmails(to, 1, { settle: false })).toHaveLength(1);
    await api("PUT", subPath(sent.submissionId), { token: owner.token, body: { isSpam: true } });
    const unflag = await api("PUT", subPath(sent.submissionId), { token: owner.token, body: { isSpam: false } });
    expect(unflag.body.data.submission.releasedAt).toBeNull();
    expect(await rawItem(keys.release(sent.submissionId))).toBeUndefined();
    expect(await emailsTo(to)).toHaveLength(1);
    expect(await waitForEmails(to)).toHaveLength(1);
  });
});
