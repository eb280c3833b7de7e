import { PLANS } from "../config";
import * as z from "../validation";

/** `limit` (1-100, default 50) and an opaque `cursor`, for every list that grows. */
export const pageQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
  cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
});

export const email = z.email().check(z.maxLength(254));
export const name = z.string().check(z.trim(), z.minLength(1), z.maxLength(255));
export const plan = z.enum(PLANS);

/** A bare host name such as `example.com` (no scheme, port or path), stored lower-cased. */
export const domain = z.pipe(
  z.string().check(z.trim(), z.toLowerCase(), z.maxLength(253)),
  z.string().check(
    z.regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, "Must be a host name such as example.com"),
  ),
);
