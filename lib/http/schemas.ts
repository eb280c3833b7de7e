import { PLANS } from "../config";
import * as z from "../validation";

/**
 * Request fields several routes share. Each is marked as a pure `z.shared` call (lib/validation.ts),
 * so a function's bundle holds, and its cold start builds, only the ones its code uses.
 */

export const email = /* @__PURE__ */ z.shared(() => z.email().check(z.maxLength(254)));
export const name = /* @__PURE__ */ z.shared(() => z.string().check(z.trim(), z.minLength(1), z.maxLength(255)));
/** A password being chosen (signup's rule): 10 to 200 characters. */
export const newPassword = /* @__PURE__ */ z.shared(() => z.string().check(z.minLength(10), z.maxLength(200)));
export const plan = /* @__PURE__ */ z.shared(() => z.enum(PLANS));
/** A token a person pastes or a page reads from a link's fragment (an invite, an emailed link); its format is judged by the route. */
export const linkToken = /* @__PURE__ */ z.shared(() => z.string().check(z.minLength(1), z.maxLength(200)));

/** A bare host name such as `example.com` (no scheme, port or path), stored lower-cased. */
export const domain = /* @__PURE__ */ z.shared(() =>
  z.pipe(
    z.string().check(z.trim(), z.toLowerCase(), z.maxLength(253)),
    z
      .string()
      .check(z.regex(/^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/, "Must be a host name such as example.com")),
  ),
);
