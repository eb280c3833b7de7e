import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { AwsClient } from "aws4fetch";
import { loadConfig } from "../config";

/**
 * Inlet's one SES call (SendEmail, v2 API) through `aws4fetch`, the SigV4 signer for `fetch`
 * that already sends the S3 calls (lib/aws/s3.ts), instead of `@aws-sdk/client-sesv2`: the SDK
 * client was 61.5 KB of the queue consumer's bundle, which had reached its 500 KB bar (500.04 KB
 * once the consumer recorded its metrics; docs/performance.md, "Library swaps"). The request is SES's REST
 * operation as the SDK sends it (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html):
 * `POST /v2/email/outbound-emails` with the same JSON body, which the local SES emulator
 * (aws-ses-v2-local) answers too. Credentials come from the SDK's default chain, which the
 * DynamoDB client already bundles.
 */

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

type Content = { Data: string; Charset: "UTF-8" };

/** SendEmail's request body, the fields Inlet sends (SES's own names). */
export interface SendEmailInput {
  FromEmailAddress: string;
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  Destination: { ToAddresses: string[] };
  ReplyToAddresses?: string[];
  Content: { Simple: { Subject: Content; Body: { Html: Content; Text: Content } } };
}

/** One SendEmail call, as the SDK's commands carry it (`input`): what tests observe and fail. */
export interface SendEmailCommand {
  input: SendEmailInput;
}

/** A refused or failed SendEmail: `name` is SES's error type ("TooManyRequestsException"…) when it sent one. */
export class SesRequestError extends Error {
  constructor(
    name: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = name;
  }
}

export interface SesClient {
  send(command: SendEmailCommand): Promise<{ MessageId?: string }>;
}

/**
 * Time limit of one SendEmail, retries included. SendEmail usually answers well under a second;
 * a hang fails well before the consumer's 30 s timeout, so the email's claim is released and the
 * queue message retried.
 */
const TIMEOUT_MS = 15_000;
/** aws4fetch retries 5xx and 429 answers itself, with jittered backoff: two more attempts. */
const RETRIES = 2;

let client: SesClient | undefined;

/**
 * The process's SES client, built once from config: the region's endpoint in AWS, the SES
 * emulator locally through SES_ENDPOINT.
 */
export function ses(): SesClient {
  if (!client) {
    const config = loadConfig();
    const region = config.AWS_REGION;
    const endpoint = (config.SES_ENDPOINT ?? `https://email.${region}.amazonaws.com`).replace(/\/+$/, "");
    const credentials = defaultProvider();
    client = {
      async send({ input }) {
        const { accessKeyId, secretAccessKey, sessionToken } = await credentials();
        const aws = new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: "ses", region, retries: RETRIES });
        const response = await aws.fetch(`${endpoint}/v2/email/outbound-emails`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(input),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        const text = await response.text();
        let body: { MessageId?: unknown; message?: unknown; Message?: unknown } = {};
        try {
          body = JSON.parse(text);
        } catch {
          // A body that is not JSON (a proxy's page): the status says enough.
        }
        if (!response.ok) {
          // x-amzn-ErrorType is "<type>:<doc link>" (the REST-JSON protocol's error header).
          const type = response.headers.get("x-amzn-errortype")?.split(":")[0] || `Http${response.status}`;
          const message = typeof body.message === "string" ? body.message : typeof body.Message === "string" ? body.Message : "";
          throw new SesRequestError(type, response.status, `SES SendEmail failed (${response.status}): ${message.slice(0, 300)}`);
        }
        return typeof body.MessageId === "string" ? { MessageId: body.MessageId } : {};
      },
    };
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
  const out = await ses().send({
    input: {
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
    },
  });
  return out.MessageId;
}
