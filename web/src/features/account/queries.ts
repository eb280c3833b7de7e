import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Answer } from "../../api/types";

export const resendVerification = () => unwrap(api.POST("/api/v1/auth/verify-email/resend")).then((r) => r.data);

export const renameOrganization = (name: string) =>
  unwrap(api.PUT("/api/v1/organization", { body: { name } })).then((r) => r.data.organization);

export type NotificationSettings = Answer<"getNotificationsResponse">;
export type NotificationChoice = NonNullable<NotificationSettings["organization"]>;
export type NotificationInput = Omit<
  NotificationSettings,
  "forms" | "formsTruncated" | "emailVerified" | "nextDigests" | "timeZone"
> & {
  timeZone: string;
  forms: { formId: string; choice: NotificationChoice }[];
};

/** GET /auth/me/notifications: the person's time zone, digest time and choices for every form. */
export const notificationsQuery = queryOptions({
  queryKey: queryKeys.notifications,
  queryFn: async () => (await unwrap(api.GET("/api/v1/auth/me/notifications"))).data,
});

export const saveNotifications = (body: NotificationInput) =>
  unwrap(api.PUT("/api/v1/auth/me/notifications", { body })).then((r) => r.data);
