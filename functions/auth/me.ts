import { me } from "../../lib/accounts";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/auth/me"), {}, async ({ principal }) => me(principal));
