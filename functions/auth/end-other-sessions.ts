import { endOtherSessions } from "../../lib/account-security";
import { httpHandler } from "../../lib/http/handler";
import { route } from "../routes";

export const handler = httpHandler(route("POST /api/v1/auth/logout/others"), {}, ({ principal }) => endOtherSessions(principal));
