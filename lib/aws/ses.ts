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
  /**
   * SES message tags, returned with the message's bounce and complaint events (the form an
   * email was sent for: lib/notifications/suppression.ts). Names and values: [A-Za-z0-9_-].
   */
  tags?: Record<string, string>;
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

/**
 * Sends one email from NOTIFY_FROM, with an HTML and a plain-text part, through the
 * SES_CONFIGURATION_SET when one is set (its suppression list and event destination: docs/metrics.md,
 * "Email reputation"); answers SES's message id.
 */
export async function sendEmail(email: EmailMessage): Promise<string | undefined> {
  const config = loadConfig();
  const tags = Object.entries(email.tags ?? {}).map(([Name, Value]) => ({ Name, Value }));
  const out = await ses().send(
    new SendEmailCommand({
      FromEmailAddress: config.NOTIFY_FROM,
      ...(config.SES_CONFIGURATION_SET ? { ConfigurationSetName: config.SES_CONFIGURATION_SET } : {}),
      ...(tags.length > 0 ? { EmailTags: tags } : {}),
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
