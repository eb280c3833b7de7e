import { retentionInput } from "../../lib/form-inputs";
import { httpHandler } from "../../lib/http/handler";
import { domain, name } from "../../lib/http/schemas";
import { updateSite } from "../../lib/sites";
import * as z from "../../lib/validation";
import { route } from "../routes";

const captchaKey = z.string().check(z.trim(), z.minLength(1), z.maxLength(512));

const body = z.strictObject({
  name: z.optional(name),
  domain: z.optional(z.nullable(domain)),
  isActive: z.optional(z.boolean()),
  referencePrefix: z.optional(z.string().check(z.regex(/^[A-Z0-9]{2,10}$/, "2 to 10 upper-case letters or digits"))),
  captcha: z.optional(
    z.nullable(
      z.strictObject({
        provider: z.enum(["score", "challenge"]),
        siteKey: captchaKey,
        secretKey: z.optional(captchaKey),
        minScore: z.optional(z.number().check(z.minimum(0), z.maximum(1))),
      }),
    ),
  ),
  defaultRetention: z.optional(retentionInput),
});

export const handler = httpHandler(route("PUT /api/v1/sites/{id}"), { body }, ({ principal, params, body, sourceIp }) =>
  updateSite(principal, sourceIp, params.id, body),
);
