import { httpHandler } from "../../lib/http/handler";
import { notificationSettingsBody, saveNotifications } from "../../lib/member-notifications";
import { route } from "../routes";

export const handler = httpHandler(
  route("PUT /api/v1/auth/me/notifications"),
  { body: notificationSettingsBody },
  ({ principal, body }) => saveNotifications(principal, body),
);
