import { signup } from "../../lib/accounts";
import { publicHandler } from "../../lib/http/public-handler";
import { email, linkToken, name } from "../../lib/http/schemas";
import { signedIn } from "../../lib/http/session-answer";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z
  .strictObject({
    email,
    password: z.string().check(z.minLength(10), z.maxLength(200)),
    name,
    organizationName: z.optional(name),
    inviteToken: z.optional(linkToken),
    /**
     * From a reclaim email (POST /auth/reclaim-email), or the "this was not me" link of a
     * verification email: takes the address from the unverified account holding it.
     */
    reclaimToken: z.optional(linkToken),
  })
  .check(
    z.refine((b) => b.organizationName === undefined || b.inviteToken === undefined, {
      message: "Give organizationName to create an organization, or inviteToken to join one (not both)",
      path: ["organizationName"],
    }),
    // Without a reclaim link, one of them; a reclaim link asked from an invite joins that invite's organization.
    z.refine((b) => b.reclaimToken !== undefined || b.organizationName !== undefined || b.inviteToken !== undefined, {
      message: "Give organizationName to create an organization, or inviteToken to join one",
      path: ["organizationName"],
    }),
  );

export const handler = publicHandler(route("POST /api/v1/auth/signup"), { body, status: 201 }, async ({ body, event }) =>
  signedIn(await signup(body), event.headers, 201),
);
