import { randomUUID } from "node:crypto";
import { jest } from "@jest/globals";
import type { Context, SQSEvent } from "aws-lambda";
import { handler } from "../../../functions/consumer/process-queue";
import { handler as recordSuppressions } from "../../../functions/email-events/record-suppressions";
import { type SendEmailCommand, ses } from "../../../lib/aws/ses";
import { EMAIL_TAGS } from "../../../lib/notifications/suppression";
import type { Form } from "../../../lib/store/forms";
import { keys } from "../../../lib/store/keys";
import { captureStdout, invokeAndRead, metricValue, stopCapture } from "../../support/emf";
import { emailsTo, HOT_LEAD, rawItem, recipient } from "./support/emails";
import { hiddenForm, hiddenSubmission } from "./support/hidden";
import { sqsEvent } from "./support/records";

/**
 * Email reputation (lib/notifications/suppression.ts): every email names the configuration set
 * and carries its form's tag; SES's bounce and complaint events, as EventBridge delivers them,
 * are recorded on the form; the next notification skips the recorded addresses. SES cannot be
 * made to bounce locally, so the bounce is the one thing made up here: an event of SES's
 * documented shape handed to the events function. Sends go to the SES emulator, recorded on
 * their way (the emulator does not keep a message's configuration set or tags).
 */
const CONFIGURATION_SET = "inlet-test-configuration-set";
// Read by lib/config.ts at this process's first loadConfig(), after this line.
process.env.SES_CONFIGURATION_SET = CONFIGURATION_SET;

type Consumer = (event: SQSEvent, context: Context) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
const consumer = handler as unknown as Consumer;
const events = recordSuppressions as unknown as (event: unknown, context: Context) => Promise<{ statusCode: number }>;

type Send = (command: SendEmailCommand) => Promise<unknown>;
let sent: SendEmailCommand["input"][];
let sendSpy: jest.Spied<Send>;
beforeAll(() => captureStdout());
afterAll(() => stopCapture());
beforeEach(() => {
  sent = [];
  const client = ses();
  const realSend = client.send.bind(client) as unknown as Send;
  sendSpy = jest.spyOn(client, "send") as unknown as jest.Spied<Send>;
  sendSpy.mockImplementation((command) => {
    sent.push(command.input);
    return realSend(command);
  });
});
afterEach(() => sendSpy.mockRestore());

const lead = () => ({ ...HOT_LEAD, message: `${HOT_LEAD.message} ${randomUUID()}` });

/** SES's event as EventBridge delivers it (https://docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-eventbridge.html). */
function sesEvent(form: Pick<Form, "id">, kind: "Bounce" | "Complaint", addresses: string[], bounceType = "Permanent") {
  const timestamp = new Date().toISOString();
  const recipients = addresses.map((emailAddress) => ({ emailAddress }));
  return {
    version: "0",
    id: randomUUID(),
    "detail-type": kind === "Bounce" ? "Email Bounced" : "Email Complaint Received",
    source: "aws.ses",
    account: "000000000000",
    time: timestamp,
    region: "us-east-1",
    resources: [],
    detail: {
      eventType: kind,
      mail: {
        timestamp,
        source: "notifications@inlet.localhost",
        messageId: randomUUID(),
        destination: addresses,
        tags: { [EMAIL_TAGS.form]: [form.id], [EMAIL_TAGS.kind]: ["notification"], "ses:configuration-set": [CONFIGURATION_SET] },
      },
      ...(kind === "Bounce"
        ? {
            bounce: {
              bounceType,
              bounceSubType: bounceType === "Permanent" ? "OnAccountSuppressionList" : "MailboxFull",
              bouncedRecipients: recipients,
              timestamp,
              feedbackId: randomUUID(),
            },
          }
        : { complaint: { complainedRecipients: recipients, timestamp, feedbackId: randomUUID() } }),
    },
  };
}

const suppressedOn = async (form: Form) => (await rawItem(keys.form(form.id)))?.suppressedRecipients;

test("every notification names the configuration set and carries its form's tag", async () => {
  const to = recipient("config-set");
  const form = await hiddenForm([to]);
  const { submission, record } = await hiddenSubmission(form, lead());
  const { result } = await invokeAndRead(consumer, sqsEvent([record]));
  expect(result.batchItemFailures).toEqual([]);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.ConfigurationSetName).toBe(CONFIGURATION_SET);
  expect(sent[0]?.EmailTags).toEqual([
    { Name: EMAIL_TAGS.kind, Value: "notification" },
    { Name: EMAIL_TAGS.form, Value: form.id },
    { Name: EMAIL_TAGS.submission, Value: submission.id },
  ]);
  // The emulator accepted it.
  expect(await emailsTo(to)).toHaveLength(1);
});

test("a hard bounce and a complaint are recorded on the form; the next notification skips them and counts them", async () => {
  const [good, bounces, complains] = [recipient("good"), recipient("bounces"), recipient("complains")];
  const form = await hiddenForm([good, bounces, complains]);

  const bounce = await invokeAndRead(events, sesEvent(form, "Bounce", [bounces.toUpperCase()]));
  expect(bounce.result.statusCode).toBe(1);
  // The recipient's fate on the email, beside the form's first entry (two rounds: no map yet).
  expect(bounce.written.done).toMatchObject({ route: "ses-events", status: 1, dynamoCalls: 3 });
  expect(bounce.written.raw).not.toContain(bounces);
  const complaint = await invokeAndRead(events, sesEvent(form, "Complaint", [complains]));
  expect(complaint.result.statusCode).toBe(1);
  expect(complaint.written.done.dynamoCalls).toBe(2);
  expect(await suppressedOn(form)).toEqual({
    [bounces]: { reason: "bounce", at: expect.any(String), detail: "Permanent/OnAccountSuppressionList" },
    // This complaint names no feedback type: no detail.
    [complains]: { reason: "complaint", at: expect.any(String) },
  });

  const { record } = await hiddenSubmission(form, lead());
  const { result, written } = await invokeAndRead(consumer, sqsEvent([record]));
  expect(result.batchItemFailures).toEqual([]);
  expect(sent.map((input) => input.Destination?.ToAddresses)).toEqual([[good]]);
  expect(await emailsTo(good)).toHaveLength(1);
  expect(await emailsTo(bounces)).toEqual([]);
  expect(metricValue(written.emf, "Notifications", { outcome: "suppressed" })).toEqual([2]);
  expect(metricValue(written.emf, "Notifications", { outcome: "sent" })).toEqual([1]);
});

test("a form whose every address is suppressed sends nothing", async () => {
  const only = recipient("only");
  const form = await hiddenForm([only]);
  expect((await invokeAndRead(events, sesEvent(form, "Bounce", [only]))).result.statusCode).toBe(1);
  const { record } = await hiddenSubmission(form, lead());
  const { result, written } = await invokeAndRead(consumer, sqsEvent([record]));
  expect(result.batchItemFailures).toEqual([]);
  expect(sent).toEqual([]);
  expect(metricValue(written.emf, "Notifications", { outcome: "suppressed" })).toEqual([1]);
  expect(metricValue(written.emf, "Notifications", { outcome: "sent" })).toBeUndefined();
});

test("no address is suppressed for a transient bounce, an address the form does not notify, an untagged or malformed event", async () => {
  const to = recipient("kept");
  const form = await hiddenForm([to]);
  const untagged = sesEvent(form, "Bounce", [to]);
  untagged.detail.mail.tags = {} as typeof untagged.detail.mail.tags;
  // The email's fate is recorded all the same (a transient bounce is its end; the email of a
  // form gone keeps its record), only Inlet's untagged or unreadable events record nothing.
  for (const [event, recorded] of [
    [sesEvent(form, "Bounce", [to], "Transient"), 1],
    [sesEvent(form, "Bounce", [recipient("stranger")]), 1],
    [sesEvent({ id: "form_doesnotexist" }, "Complaint", [to]), 1],
    [untagged, 0],
    [{ source: "aws.ses", detail: "garbage" }, 0],
    [null, 0],
  ] as const) {
    const { result } = await invokeAndRead(events, event);
    expect(result.statusCode).toBe(recorded);
  }
  expect(await suppressedOn(form)).toBeUndefined();
});
