import { httpHandler } from "../../lib/http/handler";
import { notificationSettings } from "../../lib/member-notifications";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/auth/me/notifications"), {}, ({ principal }) =>
  notificationSettings(principal),
);
