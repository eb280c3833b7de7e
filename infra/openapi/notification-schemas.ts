import { NOTIFICATION_CHOICES } from "../../lib/store/member-notifications";
import * as z from "../../lib/validation";
import { id, nullableTimestamp } from "./schemas";

// lib/member-notifications.ts view (GET and PUT /auth/me/notifications answer it)
const choice = z.enum(NOTIFICATION_CHOICES);
export const notificationSettingsView = z.strictObject({
  timeZone: z.nullable(z.string()).register(z.globalRegistry, {
    description: "IANA time zone; null until the member saves their notifications (the dashboard proposes the browser's)",
  }),
  digestHour: z.number().check(z.int(), z.minimum(0), z.maximum(23)),
  digestWeekday: z.number().check(z.int(), z.minimum(1), z.maximum(7)),
  organization: z.nullable(choice).register(z.globalRegistry, {
    description: "For every form without a choice of its own; null: as each form's notifyEmails says",
  }),
  forms: z.array(
    z.strictObject({
      formId: id,
      name: z.string(),
      siteId: id,
      siteName: z.string(),
      choice: z.nullable(choice).register(z.globalRegistry, { description: "The form's own choice; null: the organization's" }),
      effective: z.nullable(choice).register(z.globalRegistry, {
        description: "What applies to the form; null: the form's notifyEmails decide (listed: an email per submission)",
      }),
      listed: z.boolean().register(z.globalRegistry, { description: "The member's address is in the form's notifyEmails" }),
    }),
  ),
  formsTruncated: z.boolean(),
  emailVerified: z.boolean().register(z.globalRegistry, { description: "Nothing is emailed to the member until it is true" }),
  nextDigests: z.strictObject({ daily: nullableTimestamp, weekly: nullableTimestamp }),
});
