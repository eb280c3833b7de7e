import { createHmac, randomBytes } from "node:crypto";

/**
 * Standard Webhooks signing (https://www.standardwebhooks.com/, docs/outbound-webhooks.md).
 * A secret is `whsec_` + base64 of 32 random bytes (the spec allows 24-64); the signature is
 * HMAC-SHA256, keyed with the base64-decoded secret, of `<webhook-id>.<webhook-timestamp>.<body>`.
 */

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("A signing secret starts with whsec_");
  return Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
}

/** The `webhook-signature` header value: `v1,<base64 signature>`. */
export function sign(secret: string, webhookId: string, timestampSeconds: number, body: string): string {
  const signature = createHmac("sha256", secretKey(secret)).update(`${webhookId}.${timestampSeconds}.${body}`).digest("base64");
  return `v1,${signature}`;
}

export const USER_AGENT = "Inlet-Webhooks/1.0 (+https://www.standardwebhooks.com/)";

/** Every header of one attempt. `timestampSeconds` is the attempt's own time (a retry re-signs). */
export function deliveryHeaders(secret: string, webhookId: string, timestampSeconds: number, body: string) {
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": webhookId,
    "webhook-timestamp": String(timestampSeconds),
    "webhook-signature": sign(secret, webhookId, timestampSeconds, body),
  };
}
