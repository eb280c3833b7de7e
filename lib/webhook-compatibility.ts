import { COMPAT_SERVICES } from "./store/webhooks";
import * as z from "./validation";

/**
 * A webhook's `compatibility` as `POST`/`PUT /v1/sites/{id}/webhooks` take it (docs/api.md,
 * "Webhooks"): null, or the service and an extra honeypot field's name (1-100 characters, trimmed,
 * not `_`-prefixed: underscore names are control fields on every webhook anyway; null: the
 * service's default).
 */
export const compatibility = /* @__PURE__ */ z.shared(() =>
  z.nullable(
    z.strictObject({
      service: z.enum(COMPAT_SERVICES),
      honeypotField: z._default(
        z.nullable(
          z.string().check(
            z.trim(),
            z.minLength(1),
            z.maxLength(100),
            z.refine((name) => !name.startsWith("_"), "Must not start with _ (underscore names are control fields anyway)"),
          ),
        ),
        null,
      ),
    }),
  ),
);
