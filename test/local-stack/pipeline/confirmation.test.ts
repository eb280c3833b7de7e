import { randomUUID } from "node:crypto";
import { EMAIL_TAGS } from "../../../lib/notifications/suppression";
import { type Account, api, signupOwner } from "../../support/api";
import { eventually } from "../../support/eventually";
import { captchaToken, SECRET_PREFIX } from "../../support/fake-captcha";
import { putSesEvent } from "../../support/ses-events";
import { CHROME_UA, freshIp, type Hook, newSite, submit } from "../../support/spam-helpers";
import { pipelineBarrier } from "./support/barrier";
import { emailsTo, type SentEmail, waitForEmails } from "./support/emails";

/**
 * The confirmation email to the person who filled the form (docs/email.md, "Confirmation
 * emails"), through the whole local stack: browser-like posts to the intake endpoint, the
 * pipeline, the SES emulator. Each rule that refuses one is tested by what the API answers about
 * the submission's confirmation and by the emulator holding nothing for the address.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  owner = await signupOwner("confirm");
  siteId = await newSite(owner, { domain: "example.com" });
});

const FIELDS = [
  { key: "name", label: "Your name", type: "name" },
  { key: "email", label: "Email", type: "email" },
  { key: "message", label: "Message", type: "textarea" },
];
const CONFIRMATION = {
  enabled: true,
  subject: "Thanks {name} ({reference})",
  message: "Hi {name},\n\nwe got your message to {form}.\nYour reference: {reference}",
  senderName: "Acme Support",
  replyTo: "help@example.com",
};
/** A browser on the site's own pages. */
const FROM_SITE = { referer: "https://www.example.com/contact", "user-agent": CHROME_UA };

/** A form on `site` confirming to submitters, fed by a browser (generic) webhook. */
async function confirmingForm(site = siteId, confirmation: Record<string, unknown> = CONFIRMATION, name = "Contact <us> & more") {
  const res = await api("POST", `/api/v1/sites/${site}/forms`, {
    token: owner.token,
    body: { name, fields: FIELDS, settings: { confirmation } },
  });
  expect(res.status).toBe(201);
  const formId = res.body.data.form.id as string;
  const hook = await api("POST", `/api/v1/sites/${site}/webhooks`, {
    token: owner.token,
    body: { name: "Contact form", source: "generic", formId },
  });
  expect(hook.status).toBe(201);
  return { formId, hook: { id: hook.body.data.id, secretKey: hook.body.data.secretKey, siteId: site } as Hook };
}

const submitter = (label = "visitor") => `${label}-${randomUUID()}@example.net`;

/** One post as a browser sends it; answers the submission's id and reference. */
async function post(hook: Hook, fields: Record<string, string>, headers: Record<string, string> = FROM_SITE) {
  const res = await submit(hook, freshIp(), fields, { headers });
  expect(res.status).toBe(200);
  return res.body as { submissionId: string; referenceId: string };
}

type Confirmation = { status: string; reason: string | null };
const emailsOf = async (submissionId: string) => {
  const res = await api("GET", `/api/v1/submissions/${submissionId}/emails`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body.data as {
    emails: { messageId: string; kind: string; recipients: { address: string | null; status: string }[] }[];
    confirmation: Confirmation;
  };
};
/** Waits until the pipeline decided the submission's confirmation (sent, or refused with a reason). */
async function decided(submissionId: string): Promise<Confirmation> {
  let last: Confirmation = { status: "pending", reason: null };
  await eventually(`the confirmation of ${submissionId} decided`, async () => {
    last = (await emailsOf(submissionId)).confirmation;
    return last.status === "sent" || last.status === "not-sent";
  });
  return last;
}

/** Asserts the submission's confirmation was refused for `reason`, and nothing reached `to`. */
async function refused(submissionId: string, reason: string, to: string) {
  expect(await decided(submissionId)).toEqual({ status: "not-sent", reason });
  await pipelineBarrier();
  expect(await emailsTo(to)).toEqual([]);
}

const decode = (word: string) => {
  const parts = [...word.matchAll(/=\?UTF-8\?B\?([^?]+)\?=/g)].map((m) => Buffer.from(m[1] as string, "base64").toString("utf8"));
  return parts.join("");
};

describe("sent", () => {
  test("from the site's domain: the owner's subject and message, placeholders filled, sender name, reply-to, nothing else submitted", async () => {
    const { formId, hook } = await confirmingForm();
    const to = submitter();
    const secret = `secret-${randomUUID()}`;
    const sent = await post(hook, { name: "Ada Lovelace", email: to.toUpperCase(), message: secret });
    expect(await decided(sent.submissionId)).toEqual({ status: "sent", reason: null });
    const [email] = await waitForEmails(to);
    const mail = email as SentEmail & { headers?: { name: string; value: string }[] };
    expect(mail.subject).toBe(`Thanks Ada Lovelace (${sent.referenceId})`);
    expect(decode(mail.from)).toBe("Acme Support");
    expect(mail.from).toMatch(/<[^<>@\s]+@[^<>\s]+>$/);
    expect(mail.replyTo).toEqual(["help@example.com"]);
    expect(mail.headers).toEqual(expect.arrayContaining([{ name: "Auto-Submitted", value: "auto-generated" }]));
    expect(mail.body.text).toContain(
      `Hi Ada Lovelace,\n\nwe got your message to Contact <us> & more.\nYour reference: ${sent.referenceId}`,
    );
    expect(mail.body.text).toContain('entered in the form "Contact <us> & more" on example.com');
    expect(mail.body.html).toContain("we got your message to Contact &lt;us&gt; &amp; more.<br>");
    // No submitted content but the placeholders: not the message, not the address.
    for (const part of [mail.subject, mail.body.text, mail.body.html]) {
      expect(part).not.toContain(secret);
      expect(part).not.toContain(to);
    }
    // The API lists it with the notification's: to the submitter, whose address is not kept.
    const { emails } = await emailsOf(sent.submissionId);
    expect(emails).toEqual([
      {
        messageId: mail.messageId,
        kind: "confirmation",
        sentAt: expect.any(String),
        recipients: [{ address: null, status: "sent", at: expect.any(String), detail: null }],
      },
    ]);
    // Off again: the next submission gets none.
    expect(
      (
        await api("PUT", `/api/v1/forms/${formId}`, {
          token: owner.token,
          body: { settings: { confirmation: { enabled: false } } },
        })
      ).status,
    ).toBe(200);
    const other = submitter("off");
    const off = await post(hook, { name: "Ada", email: other, message: "hello" });
    await eventually(
      "the submission processed",
      async () =>
        (await api("GET", `/api/v1/submissions/${off.submissionId}`, { token: owner.token })).body.data.submission.lead !== null,
    );
    await pipelineBarrier();
    expect((await emailsOf(off.submissionId)).confirmation).toEqual({ status: "off", reason: null });
    expect(await emailsTo(other)).toEqual([]);
  });

  test("a name cannot inject: CR/LF, markup and links never reach a header or the markup, and a name that is not one is left out", async () => {
    const { hook } = await confirmingForm();
    const cases = [
      { name: "Zoë O'Brien & Co", subject: "Thanks Zoë O'Brien & Co", html: "Hi Zoë O&#39;Brien &amp; Co," },
      { name: "Ada\r\nBcc: victim@example.org", subject: "Thanks", html: "Hi," },
      { name: "Eve <b>bold</b>", subject: "Thanks", html: "Hi," },
      { name: "Cheap pills at www.pills.example", subject: "Thanks", html: "Hi," },
      { name: "Line\r\nbreak", subject: "Thanks Line break", html: "Hi Line break," },
    ];
    for (const c of cases) {
      const to = submitter("inject");
      const sent = await post(hook, { name: c.name, email: to, message: "m" });
      const [mail] = await waitForEmails(to, 1, { settle: false });
      expect(mail?.subject).toBe(`${c.subject} (${sent.referenceId})`);
      expect(mail?.subject).not.toMatch(/[\r\n]/);
      expect(mail?.body.html).toContain(c.html);
      expect(mail?.body.html).not.toMatch(/<b>|victim@|www\.pills/);
      expect(mail?.destination).toEqual({ to: [to], cc: [], bcc: [] });
    }
  });

  test("without a Referer, through the site's captcha", async () => {
    const captchaSite = await newSite(owner, {
      domain: "example.com",
      captcha: { provider: "challenge", siteKey: "k", secretKey: `${SECRET_PREFIX}confirm-${randomUUID()}` },
    });
    const { hook } = await confirmingForm(captchaSite);
    const to = submitter("captcha");
    const sent = await post(
      hook,
      { name: "Ada", email: to, message: "hello", "h-captcha-response": captchaToken("pass") },
      { "user-agent": CHROME_UA },
    );
    expect(await decided(sent.submissionId)).toEqual({ status: "sent", reason: null });
    expect(await waitForEmails(to)).toHaveLength(1);
  });
});

describe("refused, each rule", () => {
  test("not from the site's domain (another site's page, or no Referer) and no captcha", async () => {
    const { hook } = await confirmingForm();
    const elsewhere: Record<string, string>[] = [
      { referer: "https://example.com.evil.example.org/x", "user-agent": CHROME_UA },
      { "user-agent": CHROME_UA },
    ];
    for (const headers of elsewhere) {
      const to = submitter("elsewhere");
      const sent = await post(hook, { name: "Mallory", email: to, message: "hello" }, headers);
      await refused(sent.submissionId, "not-from-domain", to);
    }
  });

  test("no address to confirm to", async () => {
    const { hook } = await confirmingForm();
    const sent = await post(hook, { name: "Ada", email: "not an address", message: "hello" });
    expect(await decided(sent.submissionId)).toEqual({ status: "not-sent", reason: "no-address" });
  });

  test("at most one per address and form a day; another form confirms to it", async () => {
    const { hook } = await confirmingForm();
    const to = submitter("daily");
    const first = await post(hook, { name: "Ada", email: to, message: "one" });
    expect(await decided(first.submissionId)).toEqual({ status: "sent", reason: null });
    const second = await post(hook, { name: "Ada", email: to, message: "two" });
    expect(await decided(second.submissionId)).toEqual({ status: "not-sent", reason: "repeated" });
    await pipelineBarrier();
    expect(await emailsTo(to)).toHaveLength(1);
    const { hook: otherForm } = await confirmingForm();
    const third = await post(otherForm, { name: "Ada", email: to, message: "three" });
    expect(await decided(third.submissionId)).toEqual({ status: "sent", reason: null });
    expect(await waitForEmails(to, 2)).toHaveLength(2);
  });

  test("spam gets none, and neither does a submission released from spam", async () => {
    const { hook } = await confirmingForm();
    const to = submitter("spam");
    const spam = await post(hook, { name: "Bot", email: to, message: "buy", _hp: "I am a bot" });
    expect((await emailsOf(spam.submissionId)).confirmation).toEqual({ status: "not-sent", reason: "spam" });
    const released = await api("PUT", `/api/v1/submissions/${spam.submissionId}`, {
      token: owner.token,
      body: { isSpam: false },
    });
    expect(released.status).toBe(200);
    await refused(spam.submissionId, "released-from-spam", to);
  });

  test("a site whose domain was removed since", async () => {
    const site = await newSite(owner, { domain: "example.com" });
    const { hook } = await confirmingForm(site);
    expect((await api("PUT", `/api/v1/sites/${site}`, { token: owner.token, body: { domain: null } })).status).toBe(200);
    const to = submitter("nodomain");
    const sent = await post(hook, { name: "Ada", email: to, message: "hello" });
    await refused(sent.submissionId, "no-domain", to);
  });

  test("an address SES suppressed for the form, until a person lifts it", async () => {
    const { formId, hook } = await confirmingForm();
    const to = submitter("bounces");
    const first = await post(hook, { name: "Ada", email: to, message: "one" });
    const [mail] = await waitForEmails(to);
    // SES reports the confirmation bouncing hard.
    const tags = { [EMAIL_TAGS.kind]: "confirmation", [EMAIL_TAGS.form]: formId, [EMAIL_TAGS.submission]: first.submissionId };
    await putSesEvent("Bounce", { messageId: mail?.messageId as string, destination: [to], tags });
    const { emails } = await emailsOf(first.submissionId);
    expect(emails[0]?.recipients).toEqual([
      { address: null, status: "bounced", at: expect.any(String), detail: expect.stringMatching(/^Permanent\/General: /) },
    ]);
    // The form's suppressed addresses list it (a submitter's: with submissions.view).
    const list = await api("GET", `/api/v1/forms/${formId}/suppressed-recipients`, { token: owner.token });
    expect(list.body.data).toEqual({
      suppressedRecipients: [
        {
          id: expect.stringMatching(/^sr_/),
          kind: "confirmation",
          address: to,
          reason: "bounce",
          detail: expect.any(String),
          at: expect.any(String),
        },
      ],
      nextCursor: null,
    });
    const second = await post(hook, { name: "Ada", email: to, message: "two" });
    expect(await decided(second.submissionId)).toEqual({ status: "not-sent", reason: "suppressed" });

    // Lifted (the address is fixed): the next one goes at once, the day's limit starting anew.
    const id = list.body.data.suppressedRecipients[0].id as string;
    expect((await api("DELETE", `/api/v1/forms/${formId}/suppressed-recipients/${id}`, { token: owner.token })).status).toBe(200);
    expect(
      (await api("GET", `/api/v1/forms/${formId}/suppressed-recipients`, { token: owner.token })).body.data.suppressedRecipients,
    ).toEqual([]);
    const third = await post(hook, { name: "Ada", email: to, message: "three" });
    expect(await decided(third.submissionId)).toEqual({ status: "sent", reason: null });
    expect(await waitForEmails(to, 2)).toHaveLength(2);
  });
});

describe("the settings", () => {
  test("off by default, with a subject and message to start from; turning it on needs the site's domain", async () => {
    const noDomain = await newSite(owner);
    const created = await api("POST", `/api/v1/sites/${noDomain}/forms`, { token: owner.token, body: { name: "Plain" } });
    expect(created.body.data.form.settings.confirmation).toEqual({
      enabled: false,
      subject: expect.stringContaining("{reference}"),
      message: expect.stringContaining("{name}"),
      senderName: null,
      replyTo: null,
    });
    const formId = created.body.data.form.id as string;
    const on = await api("PUT", `/api/v1/forms/${formId}`, {
      token: owner.token,
      body: { settings: { confirmation: { enabled: true } } },
    });
    expect(on.status).toBe(409);
    expect(on.body.error).toMatchObject({ code: "SITE_DOMAIN_REQUIRED", details: [{ path: "settings.confirmation.enabled" }] });
    // Editing it while off is fine; the merge keeps what is not given.
    const edited = await api("PUT", `/api/v1/forms/${formId}`, {
      token: owner.token,
      body: { settings: { confirmation: { subject: "Got it: {reference}", replyTo: "Team@Example.com" } } },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.form.settings.confirmation).toMatchObject({
      enabled: false,
      subject: "Got it: {reference}",
      replyTo: "team@example.com",
      senderName: null,
    });
  });

  test("bad input is 400 VALIDATION_ERROR on the field", async () => {
    const { formId } = await confirmingForm();
    const bad: [Record<string, unknown>, string][] = [
      [{ subject: "Two\r\nlines" }, "settings.confirmation.subject"],
      [{ subject: "x".repeat(201) }, "settings.confirmation.subject"],
      [{ message: "" }, "settings.confirmation.message"],
      [{ message: "x".repeat(2001) }, "settings.confirmation.message"],
      [{ senderName: "Acme\nBcc: x@y.example" }, "settings.confirmation.senderName"],
      [{ senderName: "x".repeat(65) }, "settings.confirmation.senderName"],
      [{ replyTo: "Acme <help@example.com>" }, "settings.confirmation.replyTo"],
      [{ enabled: "yes" }, "settings.confirmation.enabled"],
      [{ bcc: "someone@example.com" }, "settings.confirmation"],
    ];
    for (const [confirmation, path] of bad) {
      const res = await api("PUT", `/api/v1/forms/${formId}`, { token: owner.token, body: { settings: { confirmation } } });
      expect([JSON.stringify(confirmation), res.status, res.body.error.code]).toEqual([
        JSON.stringify(confirmation),
        400,
        "VALIDATION_ERROR",
      ]);
      expect(res.body.error.details.map((d: { path: string }) => d.path).join(" ")).toContain(path);
    }
  });
});
