import { signup } from "../../lib/accounts";
import { publicHandler } from "../../lib/http/public-handler";
import { email, name } from "../../lib/http/schemas";
import { signedIn } from "../../lib/http/session-answer";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z
  .strictObject({
    email,
    password: z.string().check(z.minLength(10), z.maxLength(200)),
    name,
    organizationName: z.optional(name),
    inviteToken: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    /** From a reclaim email (POST /auth/reclaim-email): takes the address from an unverified account. */
    reclaimToken: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  })
  .check(
    z.refine((b) => (b.organizationName === undefined) !== (b.inviteToken === undefined), {
      message: "Give organizationName to create an organization, or inviteToken to join one (not both)",
      path: ["organizationName"],
    }),
    // A reclaimed address gets an organization of its own; joining one stays the invite's business.
    z.refine((b) => b.reclaimToken === undefined || b.inviteToken === undefined, {
      message: "Give reclaimToken with organizationName, not with inviteToken",
      path: ["reclaimToken"],
    }),
  );

export const handler = publicHandler(route("POST /api/v1/auth/signup"), { body, status: 201 }, async ({ body, event }) =>
  signedIn(await signup(body), event.headers, 201),
);
