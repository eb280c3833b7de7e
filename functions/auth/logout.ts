import { logout } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { signedOut } from "../../lib/http/session-answer";
import { route } from "../routes";

export const handler = httpHandler(route("POST /api/v1/auth/logout"), {}, async ({ principal }) => {
  await logout(principal);
  return signedOut({ message: "Logged out" });
});
