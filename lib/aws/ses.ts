import { defaultProvider } from "@aws-sdk/credential-provider-node";
import { AwsClient } from "aws4fetch";
import { loadConfig } from "../config";
import { withDeadline } from "../deadline";

/**
 * Inlet's SES calls (SendEmail; DeleteSuppressedDestination when a person lifts a suppression;
 * v2 API) through `aws4fetch`, the SigV4 signer for `fetch`
 * that already sends the S3 calls (lib/aws/s3.ts), instead of `@aws-sdk/client-sesv2`: the SDK
 * client was 61.5 KB of the queue consumer's bundle, which had reached its 500 KB bar (500.04 KB
 * once the consumer recorded its metrics; docs/performance.md, "Library swaps"). The request is SES's REST
 * operation as the SDK sends it (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html):
 * `POST /v2/email/outbound-emails` with the same JSON body, which the local SES emulator
 * (aws-ses-v2-local) answers too (it keeps no suppression list: a DELETE there is a 404, "absent"). Credentials come from the SDK's default chain, which the
 * DynamoDB client already bundles.
 */

/**
 * The message tag every email carries: what it is (`notification`, `confirmation`, `verify`, ...),
 * returned with each of its SES events, which record it by it (lib/notifications/email-events.ts).
 */
export const KIND_TAG = "inlet-kind";

/** One email as SES sends it (lib/notifications/email.ts renders a submission's). */
export interface EmailMessage {
  to: string[];
  /** Carbon copies (a notification's addresses a submission's `_cc` picked: lib/notifications/email.ts). */
  cc?: string[];
  /** The submitter's `_replyto` address, when it is a plain address. */
  replyTo?: string;
  subject: string;
  html: string;
  text: string;
  /** What the email is, tagged KIND_TAG: names and values in [A-Za-z0-9_-]. */
  kind: string;
  /**
   * More SES message tags, returned with the message's events (the form and submission an email
   * was sent for: lib/notifications/suppression.ts). Names and values: [A-Za-z0-9_-].
   */
  tags?: Record<string, string>;
  /** A display name before NOTIFY_FROM's address (a form's confirmation), instead of NOTIFY_FROM's own. */
  fromName?: string;
  /** Headers SES adds to the message (`Auto-Submitted`); never built from submitted text. */
  headers?: Record<string, string>;
}

/** An email's content, its sender to say what kind it is. */
export type EmailContent = Omit<EmailMessage, "kind">;

type Content = { Data: string; Charset: "UTF-8" };

/** SendEmail's request body, the fields Inlet sends (SES's own names). */
export interface SendEmailInput {
  FromEmailAddress: string;
  ConfigurationSetName?: string;
  EmailTags?: { Name: string; Value: string }[];
  Destination: { ToAddresses: string[]; CcAddresses?: string[] };
  ReplyToAddresses?: string[];
  Content: {
    Simple: { Subject: Content; Body: { Html: Content; Text: Content }; Headers?: { Name: string; Value: string }[] };
  };
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
  /**
   * DeleteSuppressedDestination: takes `address` off the account's suppression list. "absent"
   * when it was not on it (SES answers 404 NotFoundException; so does the local emulator, which
   * keeps no list).
   */
  unsuppress(address: string): Promise<"removed" | "absent">;
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
    /** One signed call of SES's REST API; answers the response and its JSON body (or {}). */
    const call = async (method: string, path: string, input?: unknown) => {
      const { accessKeyId, secretAccessKey, sessionToken } = await credentials();
      const aws = new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: "ses", region, retries: RETRIES });
      // The time limit bounds the answer and its body, even where the abort does not reach the body (lib/deadline.ts).
      const { response, text } = await withDeadline(TIMEOUT_MS, `SES ${method} ${path}`, async (limit) => {
        const answer = await limit.within(
          aws.fetch(`${endpoint}${path}`, {
            method,
            ...(input === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(input) }),
            signal: limit.signal,
          }),
        );
        return { response: answer, text: await limit.within(answer.text()) };
      });
      let body: { MessageId?: unknown; message?: unknown; Message?: unknown } = {};
      try {
        body = JSON.parse(text);
      } catch {
        // A body that is not JSON (a proxy's page): the status says enough.
      }
      return { response, body };
    };
    const failure = (operation: string, response: Response, body: { message?: unknown; Message?: unknown }) => {
      // x-amzn-ErrorType is "<type>:<doc link>" (the REST-JSON protocol's error header).
      const type = response.headers.get("x-amzn-errortype")?.split(":")[0] || `Http${response.status}`;
      const message = typeof body.message === "string" ? body.message : typeof body.Message === "string" ? body.Message : "";
      return new SesRequestError(type, response.status, `SES ${operation} failed (${response.status}): ${message.slice(0, 300)}`);
    };
    client = {
      async send({ input }) {
        const { response, body } = await call("POST", "/v2/email/outbound-emails", input);
        if (!response.ok) throw failure("SendEmail", response, body);
        return typeof body.MessageId === "string" ? { MessageId: body.MessageId } : {};
      },
      // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_DeleteSuppressedDestination.html
      async unsuppress(address) {
        const { response, body } = await call("DELETE", `/v2/email/suppression/addresses/${encodeURIComponent(address)}`);
        if (response.status === 404) return "absent";
        if (!response.ok) throw failure("DeleteSuppressedDestination", response, body);
        return "removed";
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
  const tags = Object.entries({ [KIND_TAG]: email.kind, ...email.tags }).map(([Name, Value]) => ({ Name, Value }));
  const headers = Object.entries(email.headers ?? {}).map(([Name, Value]) => ({ Name, Value }));
  const out = await ses().send({
    input: {
      FromEmailAddress: email.fromName ? withDisplayName(email.fromName, config.NOTIFY_FROM) : config.NOTIFY_FROM,
      ...(config.SES_CONFIGURATION_SET ? { ConfigurationSetName: config.SES_CONFIGURATION_SET } : {}),
      EmailTags: tags,
      Destination: { ToAddresses: email.to, ...(email.cc && email.cc.length > 0 ? { CcAddresses: email.cc } : {}) },
      ...(email.replyTo ? { ReplyToAddresses: [email.replyTo] } : {}),
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: "UTF-8" },
          Body: {
            Html: { Data: email.html, Charset: "UTF-8" },
            Text: { Data: email.text, Charset: "UTF-8" },
          },
          ...(headers.length > 0 ? { Headers: headers } : {}),
        },
      },
    },
  });
  return out.MessageId;
}

/**
 * `name` as the display name of `sender`'s address (`Name <addr>` or `addr`) in RFC 2047
 * encoded-words, so any character of the name (quotes, `<`, `@`, CR, non-ASCII) is data, never
 * syntax, as SES requires for a name that is not plain ASCII
 * (https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_SendEmail.html, FromEmailAddress).
 * An encoded-word is at most 75 characters and holds whole characters (RFC 2047, sections 2 and
 * 5): 45 bytes of UTF-8 each, the words separated by a space, which readers drop between them.
 */
export function withDisplayName(name: string, sender: string): string {
  const address = (/<([^<>]+)>\s*$/.exec(sender)?.[1] ?? sender).trim();
  const words: string[] = [];
  let chunk = "";
  for (const char of name) {
    if (Buffer.byteLength(chunk + char, "utf8") > 45) {
      words.push(chunk);
      chunk = "";
    }
    chunk += char;
  }
  if (chunk) words.push(chunk);
  return `${words.map((w) => `=?UTF-8?B?${Buffer.from(w, "utf8").toString("base64")}?=`).join(" ")} <${address}>`;
}
