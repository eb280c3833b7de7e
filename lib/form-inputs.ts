import * as schemas from "./http/schemas";
import { INTAKE_LIMITS } from "./intake/body";
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

export const settingsInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    notifyEmails: z.optional(z.array(schemas.email).check(z.maxLength(MAX_NOTIFY_EMAILS))),
    /** Checked against the site's domain in lib/forms.ts, as intake checks `_redirect`; null clears it. */
    redirectUrl: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_REDIRECT_URL)))),
  }),
);
export type SettingsInput = z.output<typeof settingsInput>;
