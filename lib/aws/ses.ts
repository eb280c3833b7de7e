import { SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { loadConfig } from "../config";
import { traceClient } from "./tracing";

/** One email as SES sends it (lib/notifications/email.ts renders a submission's). */
export interface EmailMessage {
  to: string[];
  /** The submitter's `_replyto` address, when it is a plain address. */
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
}

let client: SESv2Client | undefined;

/**
 * The process's SES (v2 API) client, built once from config: the region's endpoint in AWS, the
 * SES emulator (aws-ses-v2-local) locally through SES_ENDPOINT.
 */
export function ses(): SESv2Client {
  if (!client) {
    const config = loadConfig();
    client = new SESv2Client({
      region: config.AWS_REGION,
      ...(config.SES_ENDPOINT ? { endpoint: config.SES_ENDPOINT } : {}),
      // The SDK sets no request timeout by default: a hung call would hold the email's claim
      // until the consumer's 30 s timeout. With these bounds a hang fails well before (three
      // attempts, the SDK's default, stay under 30 s), the claim is released and the message is
      // retried. SendEmail usually answers in well under a second.
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 6_000 },
    });
    traceClient(client, client, config.TRACING === "on");
  }
  return client;
}

/** Sends one email from NOTIFY_FROM, with an HTML and a plain-text part; answers SES's message id. */
export async function sendEmail(email: EmailMessage): Promise<string | undefined> {
  const out = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: loadConfig().NOTIFY_FROM,
      Destination: { ToAddresses: email.to },
      ...(email.replyTo ? { ReplyToAddresses: [email.replyTo] } : {}),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: "UTF-8" },
          Body: {
            Html: { Data: email.html, Charset: "UTF-8" },
            Text: { Data: email.text, Charset: "UTF-8" },
          },
        },
      },
    }),
  );
  return out.MessageId;
}
