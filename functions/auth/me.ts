import { me } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";

export const handler = httpHandler("GET /api/v1/auth/me", {}, async ({ principal }) => me(principal));
