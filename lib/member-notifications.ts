import type { SessionPrincipal } from "./auth/principal";
import { sessionEnded } from "./auth/sessions";
import { canonicalZone, digestTime, nextDueAt } from "./digests/schedule";
import { type OrganizationForms, organizationForms } from "./digests/scope";
import { AppError } from "./errors";
import { choiceFor, wantsDigest } from "./notifications/member-choices";
import {
  DIGEST_CADENCES,
  type DigestSchedule,
  getNotifiedMember,
  NOTIFICATION_CHOICES,
  type NotificationChoice,
  type NotificationSettings,
  type NotifiedMember,
  saveNotificationSettings,
} from "./store/member-notifications";
import * as z from "./validation";

/**
 * A member's own email notifications (`GET`/`PUT /v1/auth/me/notifications`, docs/api.md): the
 * time zone, the digest hour and weekday, the choice for the whole organization and for single
 * forms (docs/notifications.md, "Who gets what").
 */

/** Choices for single forms a member may keep (they ride on the member item every request reads). */
export const MAX_FORM_CHOICES = 100;

const choice = z.enum(NOTIFICATION_CHOICES);
const formId = z.string().check(z.regex(/^[0-9A-Za-z_-]{1,64}$/, "Must be a form id"));

export const notificationSettingsBody = z.strictObject({
  timeZone: z.string().check(
    z.maxLength(64),
    z.refine((zone) => canonicalZone(zone) !== undefined, "Must be an IANA time zone such as Europe/Paris"),
  ),
  digestHour: z.int().check(z.minimum(0), z.maximum(23)),
  digestWeekday: z.int().check(z.minimum(1), z.maximum(7)),
  organization: z.nullable(choice),
  forms: z.array(z.strictObject({ formId, choice })).check(
    z.maxLength(MAX_FORM_CHOICES),
    z.refine((list) => new Set(list.map((f) => f.formId)).size === list.length, "Each form may be listed once"),
  ),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsBody>;

function view(principal: SessionPrincipal, member: NotifiedMember | undefined, organization: OrganizationForms) {
  const settings = member?.notifications;
  const address = principal.email.toLowerCase();
  return {
    timeZone: member?.timeZone ?? null,
    digestHour: settings?.digestHour ?? digestTime({}).hour,
    digestWeekday: settings?.digestWeekday ?? digestTime({}).weekday,
    organization: settings?.organization ?? null,
    forms: organization.sites.flatMap(({ site, forms }) =>
      forms.map((form) => ({
        formId: form.id,
        name: form.name,
        siteId: site.id,
        siteName: site.name,
        choice: settings && Object.hasOwn(settings.forms, form.id) ? (settings.forms[form.id] ?? null) : null,
        effective: choiceFor(settings, form.id),
        listed: (form.settings?.notifyEmails ?? []).some((a) => a.toLowerCase() === address),
      })),
    ),
    formsTruncated: organization.truncated,
    emailVerified: principal.emailVerified && !principal.emailLost,
    nextDigests: {
      daily: member?.digests?.daily?.dueAt ?? null,
      weekly: member?.digests?.weekly?.dueAt ?? null,
    },
  };
}

/** `GET /auth/me/notifications`: the member's choices, over every form of the organization. */
export async function notificationSettings(principal: SessionPrincipal) {
  const [member, organization] = await Promise.all([
    getNotifiedMember(principal.orgId, principal.userId),
    organizationForms(principal.orgId),
  ]);
  if (!member) throw sessionEnded();
  return view(principal, member, organization);
}

/**
 * `PUT /auth/me/notifications`: replaces the member's choices (a form left out of `forms` follows
 * the organization-wide choice) and schedules the digests they ask for, each at its next due time
 * in the member's zone, keeping the last day each one covered so no day goes twice.
 */
export async function saveNotifications(principal: SessionPrincipal, input: NotificationSettingsInput, now = Date.now()) {
  const [member, organization] = await Promise.all([
    getNotifiedMember(principal.orgId, principal.userId),
    organizationForms(principal.orgId),
  ]);
  if (!member) throw sessionEnded();
  const known = new Set(organization.sites.flatMap(({ forms }) => forms.map((f) => f.id)));
  const unknown = input.forms.findIndex((f) => !known.has(f.formId));
  if (unknown >= 0) {
    throw new AppError("NOT_FOUND", "Form not found (or archived)", [
      { path: `forms.${unknown}.formId`, message: "No such form in your organization" },
    ]);
  }
  const notifications: NotificationSettings = {
    organization: input.organization,
    forms: Object.fromEntries(input.forms.map((f) => [f.formId, f.choice])) as Record<string, NotificationChoice>,
    digestHour: input.digestHour,
    digestWeekday: input.digestWeekday,
    updatedAt: new Date(now).toISOString(),
  };
  const timeZone = canonicalZone(input.timeZone) as string;
  const time = digestTime({ timeZone, notifications });
  const digests: DigestSchedule = {};
  for (const cadence of DIGEST_CADENCES) {
    if (!wantsDigest(notifications, cadence)) continue;
    const covered = member.digests?.[cadence]?.coveredUntil;
    digests[cadence] = {
      dueAt: new Date(nextDueAt(cadence, time, now)).toISOString(),
      ...(covered ? { coveredUntil: covered } : {}),
    };
  }
  const saved = await saveNotificationSettings(principal.orgId, principal.userId, { timeZone, notifications, digests });
  if (saved === "NOT_FOUND") throw sessionEnded();
  return view(principal, saved, organization);
}
