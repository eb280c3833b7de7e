import { resendVerification } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("POST /api/v1/auth/verify-email/resend"), { status: 202 }, ({ principal }) =>
  resendVerification(principal),
);
