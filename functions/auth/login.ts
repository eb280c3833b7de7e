import { login } from "../../lib/accounts";
import { publicHandler } from "../../lib/http/public-handler";
import { signedIn } from "../../lib/http/session-answer";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  email: z.string().check(z.minLength(1), z.maxLength(254)),
  password: z.string().check(z.minLength(1), z.maxLength(200)),
});

export const handler = publicHandler(route("POST /api/v1/auth/login"), { body }, async ({ body, sourceIp, event }) =>
  signedIn(await login({ ...body, sourceIp }), event.headers),
);
