import { logout } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("POST /api/v1/auth/logout", {}, async ({ principal }) => {
  await logout(principal);
  return { message: "Logged out" };
});
