import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import { DIGESTS } from "../../../functions/routes";
import { guardTableGrants, localGrant, runAs } from "../../../infra/local/grants";
import { db } from "../../../lib/aws/dynamodb";
import { type SendEmailInput, ses } from "../../../lib/aws/ses";
import { sendDigestEmail } from "../../../lib/digests/send";
import { EMAIL_TAGS } from "../../../lib/notifications/suppression";
import { keys } from "../../../lib/store/keys";
import { type Account, api, createSite, signupOwner } from "../../support/api";
import { apiKeyWith } from "../../support/fixtures";
import { eventBusUrl, putSesEvent, putSesEvents, sesEventDetail } from "../../support/ses-events";
import { submitTo } from "../../support/submissions";
import { emailsTo, HOT_LEAD, notifyingForm, rawItem, recipient, waitForEmails } from "./support/emails";

/**
 * Every email's fate (docs/email.md): a notification sent through the whole local stack, then
 * SES's events about it, as SES documents them, put on the stack's EventBridge stand-in
 * (infra/local/event-bus.ts: the deployed rule's pattern, to the email events function under its
 * table grant), and what the API answers about the submission's emails and the form's
 * suppressed addresses.
 */

let owner: Account;
let siteId: string;
beforeAll(async () => {
  // A function run in this process (the digest's sending path) is held to its table grant, as in AWS.
  guardTableGrants(db(), "enforce");
  owner = await signupOwner("fates");
  siteId = await createSite(owner, "Fates site");
});
afterEach(() => {
  jest.restoreAllMocks();
});

interface Recipient {
  address: string | null;
  status: string;
  at: string;
  detail: string | null;
}
interface Email {
  messageId: string;
  kind: string;
  sentAt: string;
  recipients: Recipient[];
}

const emailsOf = async (submissionId: string) => {
  const res = await api("GET", `/api/v1/submissions/${submissionId}/emails`, { token: owner.token });
  expect(res.status).toBe(200);
  return res.body.data as { emails: Email[]; confirmation: { status: string; reason: string | null } };
};
const fateOf = (email: Email | undefined, address: string) => email?.recipients.find((r) => r.address === address);

/** A form notifying `addresses`, one submission through intake, and the notification as the emulator got it. */
async function notified(addresses: string[]) {
  const { formId, hook } = await notifyingForm(owner, siteId, addresses);
  const sent = await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
  const [email] = await waitForEmails(addresses[0] as string);
  if (!email) throw new Error("no notification");
  const tags = { [EMAIL_TAGS.kind]: "notification", [EMAIL_TAGS.form]: formId, [EMAIL_TAGS.submission]: sent.submissionId };
  return { formId, hook, submissionId: sent.submissionId, ses: { messageId: email.messageId, destination: addresses, tags } };
}

test("a notification is listed as sent to each address once SES accepted it, then each address's fate follows SES's events", async () => {
  const [inbox, gone] = [recipient("inbox"), recipient("gone")];
  const { formId, submissionId, ses } = await notified([inbox, gone]);

  // Recorded by the consumer as SES accepted it: sent, to both, before any event.
  let { emails, confirmation } = await emailsOf(submissionId);
  expect(confirmation).toEqual({ status: "off", reason: null });
  expect(emails).toEqual([
    {
      messageId: ses.messageId,
      kind: "notification",
      sentAt: expect.any(String),
      recipients: [
        { address: gone, status: "sent", at: expect.any(String), detail: null },
        { address: inbox, status: "sent", at: expect.any(String), detail: null },
      ].sort((a, b) => a.address.localeCompare(b.address)),
    },
  ]);

  // SES's events: one delivered, one bounced hard (its diagnostic quotes the address: left out).
  const delivered = await putSesEvent("Delivery", ses, { recipients: [inbox] });
  expect(delivered.FailedEntryCount).toBe(0);
  await putSesEvent("Bounce", ses, { recipients: [gone], bounceSubType: "General" });
  ({ emails } = await emailsOf(submissionId));
  expect(fateOf(emails[0], inbox)).toMatchObject({ status: "delivered", detail: "250 2.6.0 Message received" });
  expect(fateOf(emails[0], gone)).toMatchObject({
    status: "bounced",
    detail: "Permanent/General: smtp; 550 5.1.1 <<address>>: user unknown",
  });
  expect(JSON.stringify(emails)).not.toContain(`<${gone}>`);

  // The hard bounce is on the form: its answer lists it, and its later notifications skip it.
  const form = (await api("GET", `/api/v1/forms/${formId}`, { token: owner.token })).body.data.form;
  expect(form.suppressedRecipients).toEqual([
    {
      id: expect.stringMatching(/^sr_[0-9A-Za-z]{22}$/),
      kind: "notification",
      address: gone,
      reason: "bounce",
      detail: "Permanent/General: smtp; 550 5.1.1 <<address>>: user unknown",
      at: expect.any(String),
    },
  ]);

  // Late, repeated or lesser events never move a fate back; a complaint goes further.
  await putSesEvents([
    sesEventDetail("DeliveryDelay", ses, { recipients: [inbox] }),
    sesEventDetail("Send", ses),
    sesEventDetail("Delivery", ses, { recipients: [inbox] }),
  ]);
  ({ emails } = await emailsOf(submissionId));
  expect(fateOf(emails[0], inbox)?.status).toBe("delivered");
  expect(fateOf(emails[0], gone)?.status).toBe("bounced");
  await putSesEvent("Complaint", ses, { recipients: [inbox], complaintFeedbackType: "abuse" });
  ({ emails } = await emailsOf(submissionId));
  expect(fateOf(emails[0], inbox)).toMatchObject({ status: "complained", detail: "abuse" });
});

test("an email's events may come before its record, and every fate SES reports is kept: delayed, rejected", async () => {
  const messageId = `0100018c-${randomUUID()}-000000`;
  const [slow, rejected] = [recipient("slow"), recipient("rejected")];
  const submissionId = `sub_${randomUUID().replaceAll("-", "").slice(0, 22)}`;
  const tags = { [EMAIL_TAGS.kind]: "notification", [EMAIL_TAGS.submission]: submissionId };
  // A delay first, then SES's Send event (order across events is not guaranteed).
  await putSesEvent("DeliveryDelay", { messageId, destination: [slow], tags }, { delayType: "MailboxFull" });
  await putSesEvent("Send", { messageId, destination: [slow], tags });
  const item = await rawItem(keys.sentEmail(messageId));
  expect(item).toMatchObject({ type: "sent_email", kind: "notification", submissionId, messageId });
  expect(item?.[`to:${slow}`]).toMatchObject({ status: "delayed", detail: "MailboxFull: smtp; 421 4.4.1 Unable to connect" });
  // SES rejected another one outright (it found a virus): every recipient of it is rejected.
  const other = `0100018c-${randomUUID()}-000000`;
  await putSesEvent("Reject", { messageId: other, destination: [rejected], tags }, { rejectReason: "Bad content" });
  expect((await rawItem(keys.sentEmail(other)))?.[`to:${rejected}`]).toMatchObject({ status: "rejected", detail: "Bad content" });
});

test("account emails are recorded by their message id, from their events alone", async () => {
  const messageId = `0100018c-${randomUUID()}-000000`;
  const to = recipient("account");
  await putSesEvent("Delivery", { messageId, destination: [to], tags: { [EMAIL_TAGS.kind]: "verify" } });
  const item = await rawItem(keys.sentEmail(messageId));
  expect(item).toMatchObject({ kind: "verify", [`to:${to}`]: { status: "delivered" } });
  // Not a submission's: in no submission's index.
  expect(item?.gsi1pk).toBeUndefined();
});

test("a digest is recorded as sent to its member once SES accepted it, by its message id alone, and its fate follows SES's events", async () => {
  const client = ses();
  const original = client.send.bind(client);
  const sent: SendEmailInput[] = [];
  jest.spyOn(client, "send").mockImplementation(async (command) => {
    sent.push(command.input);
    return original(command);
  });
  // A member's address as they typed it: its fates are kept under the lower-cased address.
  const to = recipient("Digest-Member");
  const lower = to.toLowerCase();
  const messageId = await runAs(DIGESTS.handler, localGrant(DIGESTS), () =>
    sendDigestEmail(
      { to: [to], subject: "Daily digest: 2 new submissions, 1 hot (27 Nov)", text: "New submissions: 2\n", html: "<p>2</p>" },
      { userId: "usr_fates", cadence: "daily", periodEnd: "2026-11-27" },
    ),
  );
  const [stored] = await emailsTo(to);
  expect(messageId).toBe(stored?.messageId);

  // Tagged with its kind only: a digest covers many forms and no submission.
  const tags = Object.fromEntries((sent[0]?.EmailTags ?? []).map((t) => [t.Name, t.Value]));
  expect(tags).toEqual({ [EMAIL_TAGS.kind]: "digest" });
  expect(sent[0]?.ConfigurationSetName).toBe(process.env.SES_CONFIGURATION_SET ?? "inlet-local");

  // Recorded as SES accepted it, before any event; in no submission's index.
  const key = keys.sentEmail(messageId as string);
  const item = await rawItem(key);
  expect(item).toMatchObject({ type: "sent_email", kind: "digest", messageId, [`to:${lower}`]: { status: "sent" } });
  for (const absent of ["formId", "submissionId", "gsi1pk"]) expect(item?.[absent]).toBeUndefined();

  // SES's events, with the tags SES hands back as the sender set them.
  const digest = { messageId: messageId as string, destination: [to], tags };
  await putSesEvent("DeliveryDelay", digest, { delayType: "MailboxFull" });
  expect((await rawItem(key))?.[`to:${lower}`]).toMatchObject({ status: "delayed" });
  await putSesEvent("Delivery", digest);
  expect((await rawItem(key))?.[`to:${lower}`]).toMatchObject({ status: "delivered", detail: "250 2.6.0 Message received" });
  // A late Send event changes nothing; a complaint goes further, and suppresses it on no form.
  await putSesEvent("Send", digest);
  expect((await rawItem(key))?.[`to:${lower}`]).toMatchObject({ status: "delivered" });
  await putSesEvent("Complaint", digest, { complaintFeedbackType: "abuse" });
  const last = await rawItem(key);
  expect(last?.[`to:${lower}`]).toMatchObject({ status: "complained", detail: "abuse" });
  expect(Object.keys(last ?? {}).filter((name) => name.startsWith("to:"))).toEqual([`to:${lower}`]);
  expect(last?.formId).toBeUndefined();
});

test("events the rule does not pass, or that are not Inlet's, record nothing", async () => {
  const to = recipient("ignored");
  const events: { id: string; email: { configurationSet?: string; tags: Record<string, string> } }[] = [
    // Another configuration set's email: the rule's pattern does not match it.
    { id: `m-${randomUUID()}`, email: { configurationSet: "someone-elses-set", tags: { [EMAIL_TAGS.kind]: "notification" } } },
    // Through Inlet's set, but without Inlet's kind tag: not an email Inlet sent.
    { id: `m-${randomUUID()}`, email: { tags: {} } },
  ];
  for (const { id, email } of events) {
    const answer = await putSesEvent("Delivery", { messageId: id, destination: [to], ...email });
    expect(answer.FailedEntryCount).toBe(0);
    expect(await rawItem(keys.sentEmail(id))).toBeUndefined();
  }
  // Not SES's source at all.
  const foreign = `m-${randomUUID()}`;
  await putSesEvents([
    {
      ...sesEventDetail("Delivery", { messageId: foreign, destination: [to], tags: { [EMAIL_TAGS.kind]: "x" } }),
      source: "acme.app",
    },
  ]);
  expect(await rawItem(keys.sentEmail(foreign))).toBeUndefined();
});

describe("lifting a suppressed address", () => {
  test("takes it off the form (and SES's list): the next notification goes to it again", async () => {
    const [stays, fixed] = [recipient("stays"), recipient("fixed")];
    const { formId, hook, ses } = await notified([stays, fixed]);
    await putSesEvent("Complaint", ses, { recipients: [fixed] });
    const read = async () => (await api("GET", `/api/v1/forms/${formId}`, { token: owner.token })).body.data.form;
    const [entry] = (await read()).suppressedRecipients as { id: string; address: string }[];
    expect(entry?.address).toBe(fixed);

    // Another organization, an unknown id: 404, nothing lifted.
    const stranger = await signupOwner("stranger");
    const path = `/api/v1/forms/${formId}/suppressed-recipients/${entry?.id}`;
    expect((await api("DELETE", path, { token: stranger.token })).status).toBe(404);
    const unknown = `/api/v1/forms/${formId}/suppressed-recipients/sr_${"A".repeat(22)}`;
    expect((await api("DELETE", unknown, { token: owner.token })).body.error.code).toBe("NOT_FOUND");
    expect((await read()).suppressedRecipients).toHaveLength(1);

    const lifted = await api("DELETE", path, { token: owner.token });
    expect(lifted.status).toBe(200);
    expect((await read()).suppressedRecipients).toEqual([]);
    expect((await api("DELETE", path, { token: owner.token })).status).toBe(404);

    await submitTo(hook, { ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });
    expect(await waitForEmails(fixed, 2)).toHaveLength(2);
  });
});

test("who may read them: a submission's emails and the suppressed list need submissions.view; the form answers its notification addresses; another organization's are 404", async () => {
  const to = recipient("perm");
  const { formId, submissionId, ses } = await notified([to]);
  await putSesEvent("Bounce", ses, { recipients: [to] });
  const formsOnly = await apiKeyWith(owner, ["forms.view"]);
  const emails = `/api/v1/submissions/${submissionId}/emails`;
  const list = `/api/v1/forms/${formId}/suppressed-recipients`;
  for (const path of [emails, list]) {
    const res = await api("GET", path, { token: formsOnly });
    expect([path, res.status, res.body.error.code]).toEqual([path, 403, "INSUFFICIENT_PERMISSION"]);
  }
  const form = await api("GET", `/api/v1/forms/${formId}`, { token: formsOnly });
  expect(form.body.data.form.suppressedRecipients.map((r: { address: string }) => r.address)).toEqual([to]);
  const id = form.body.data.form.suppressedRecipients[0].id as string;
  expect((await api("DELETE", `${list}/${id}`, { token: formsOnly })).status).toBe(403);

  const stranger = await signupOwner("stranger-reads");
  for (const path of [emails, list]) expect((await api("GET", path, { token: stranger.token })).status).toBe(404);
  // An id that is no suppressed address's never reaches the handler.
  expect((await api("DELETE", `${list}/not-an-id!`, { token: owner.token, unchecked: true })).status).toBe(404);
});

test("the local bus refuses what EventBridge's PutEvents refuses", async () => {
  const put = (headers: Record<string, string>, body: string) =>
    fetch(eventBusUrl(), { method: "POST", headers: { "content-type": "application/x-amz-json-1.1", ...headers }, body });
  const target = { "x-amz-target": "AWSEvents.PutEvents" };
  expect((await put({}, JSON.stringify({ Entries: [] }))).status).toBe(400);
  expect((await put(target, "{not json")).status).toBe(400);
  expect((await put(target, JSON.stringify({ Entries: [] }))).status).toBe(400);
  const eleven = Array.from({ length: 11 }, () => ({ Source: "aws.ses", DetailType: "Email Sent", Detail: "{}" }));
  expect((await put(target, JSON.stringify({ Entries: eleven }))).status).toBe(400);
  const res = await put(
    target,
    JSON.stringify({ Entries: [{ Source: "aws.ses", DetailType: "Email Sent", Detail: "not json" }] }),
  );
  expect(await res.json()).toEqual({
    FailedEntryCount: 1,
    Entries: [{ ErrorCode: "MalformedDetail", ErrorMessage: expect.any(String) }],
  });
});
