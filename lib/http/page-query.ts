import * as z from "../validation";

/** `limit` (1-100, default 50) and an opaque `cursor`, for every list that grows. */
export const pageQuery = /* @__PURE__ */ z.shared(() =>
  z.object({
    limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
    cursor: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
  }),
);
