import { isPlainAddress } from "./email-address";
import * as schemas from "./http/schemas";
import { INTAKE_LIMITS } from "./intake/body";
import { CONFIRMATION_LIMITS } from "./notifications/confirmation";
import { RETENTION_DAYS } from "./retention";
import { FIELD_TYPES } from "./store/forms";
import * as z from "./validation";

/**
 * The request schemas of a form's fields and settings, apart from lib/forms.ts: only the routes
 * that take them (create, update) construct them at cold start; every other function that uses
 * lib/forms.ts (submissions, outbound webhooks) does not (docs/performance.md, section 1).
 */

export const MAX_NOTIFY_EMAILS = 10;

/** Names that would reach an object's prototype (intake drops them too, lib/intake/fields.ts). */
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

/**
 * A field key as intake stores data under it: 1-100 characters, no leading `_` (intake reads
 * `_`-prefixed names as control fields, never data), no prototype-reaching segment.
 */
const fieldKey = /* @__PURE__ */ z.shared(() =>
  z.string().check(
    z.trim(),
    z.minLength(1),
    z.maxLength(INTAKE_LIMITS.fieldNameLength),
    z.refine((key) => !key.startsWith("_"), "A field key cannot start with _ (reserved for control fields)"),
    z.refine((key) => !key.split(".").some((s) => FORBIDDEN_SEGMENTS.has(s)), "This field key is reserved"),
  ),
);

export const fieldInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    key: fieldKey,
    label: z.string().check(z.trim(), z.minLength(1), z.maxLength(255)),
    type: z.enum(FIELD_TYPES),
    required: z.optional(z.boolean()),
    order: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(100_000))),
  }),
);
export type FieldInput = z.output<typeof fieldInput>;

/** The whole schema as an ordered list; keys are unique; at most as many fields as intake accepts. */
export const fieldsInput = /* @__PURE__ */ z.shared(() =>
  z.array(fieldInput).check(
    z.maxLength(INTAKE_LIMITS.fields),
    z.refine((fields) => new Set(fields.map((f) => f.key)).size === fields.length, "Field keys must be unique"),
  ),
);

/** A URL's longest length kept: a browser's address bar and a `Location` header stay reasonable. */
export const MAX_REDIRECT_URL = 2048;

/** No control character (CR, LF, tab...): the text goes into a header, or is one line. */
const oneLine = /* @__PURE__ */ z.shared(() =>
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  z.refine<string>((text) => !/[\u0000-\u001f\u007f]/.test(text), "Must be one line, without control characters"),
);

/**
 * A form's confirmation email (docs/email.md, "Confirmation emails"); every key optional, merged
 * into what the form has. The subject and the message hold the owner's text and the placeholders
 * `{name}`, `{reference}`, `{form}`; the sender name is shown before the deployment's address
 * (null: its own); replies go to `replyTo` (null: the sender).
 */
export const confirmationInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    enabled: z.optional(z.boolean()),
    subject: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(CONFIRMATION_LIMITS.subject), oneLine)),
    message: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(CONFIRMATION_LIMITS.message))),
    senderName: z.optional(
      z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(CONFIRMATION_LIMITS.senderName), oneLine)),
    ),
    replyTo: z.optional(
      z.nullable(
        schemas.email.check(z.refine<string>(isPlainAddress, "Must be a plain address, without a display name"), z.toLowerCase()),
      ),
    ),
  }),
);

export const settingsInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    notifyEmails: z.optional(z.array(schemas.email).check(z.maxLength(MAX_NOTIFY_EMAILS))),
    /** Checked against the site's domain in lib/forms.ts, as intake checks `_redirect`; null clears it. */
    redirectUrl: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_REDIRECT_URL)))),
    confirmation: z.optional(confirmationInput),
    /** Forward-only (docs/privacy.md): turning it on or off is recorded in the audit log. */
    forwardOnly: z.optional(z.boolean()),
  }),
);
export type SettingsInput = z.output<typeof settingsInput>;

/**
 * A retention (docs/privacy.md, "Retention"): days each kind of submission is kept, 1 to 3650,
 * null to keep until deleted; either key may be left out (it keeps its value).
 */
const retentionDays = /* @__PURE__ */ z.shared(() =>
  z.nullable(z.number().check(z.int(), z.minimum(RETENTION_DAYS.min), z.maximum(RETENTION_DAYS.max))),
);
export const retentionInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({ inboxDays: z.optional(retentionDays), spamDays: z.optional(retentionDays) }),
);
