import type { Form } from "../store/forms";
import type { DigestCadence, NotificationChoice, NotificationSettings, NotifiedMember } from "../store/member-notifications";
import { notificationRecipients } from "./suppression";

/**
 * How members' choices and a form's `notifyEmails` decide who gets what (docs/notifications.md,
 * "Who gets what"):
 * - a member's choice for a form is the form's own, else the organization-wide one, else none;
 * - with no choice, nothing changes for the member: the form's `notifyEmails` decide, as before
 *   members could choose (an email per submission if the member's address is listed, else none);
 * - `instant` sends the member the per-submission email, listed or not; `daily`, `weekly` and
 *   `off` take the member's address out of it even where the form lists it, and the digest
 *   covers the form (`daily`, `weekly`);
 * - `notifyEmails` keeps working as ever for addresses that are not members;
 * - Inlet sends to a member only at an address the member proved (`emailVerifiedAt`), never at one
 *   whose owner took it back (`emailLostAt`): so a choice cannot mail a stranger's address. A
 *   choice that takes mail away applies whatever the address's state.
 */

/** The member's choice for the form, or null (none: the form's notification list decides). */
export function choiceFor(settings: NotificationSettings | undefined, formId: string): NotificationChoice | null {
  if (!settings) return null;
  const own = Object.hasOwn(settings.forms, formId) ? settings.forms[formId] : undefined;
  return own ?? settings.organization ?? null;
}

/** Whether Inlet sends to the member's address at all: proved, and still the member's. */
export const mayEmail = (member: Pick<NotifiedMember, "emailVerifiedAt" | "emailLostAt">) =>
  Boolean(member.emailVerifiedAt) && !member.emailLostAt;

/**
 * The per-submission email's recipients for a form: its `notifyEmails` with the members' choices
 * applied, without the addresses SES reported as bouncing or complaining (./suppression.ts).
 */
export function submissionRecipients(
  form: Pick<Form, "id" | "settings" | "suppressedRecipients">,
  members: readonly NotifiedMember[],
): { to: string[]; suppressed: number } {
  const leaving = new Set<string>();
  const joining: string[] = [];
  for (const member of members) {
    // An address its owner took back is another person's now: this member's choice says nothing of it.
    if (member.emailLostAt) continue;
    const choice = choiceFor(member.notifications, form.id);
    const address = member.email.toLowerCase();
    if (choice === "instant") {
      if (mayEmail(member)) joining.push(address);
    } else if (choice !== null) {
      leaving.add(address);
    }
  }
  const listed = (form.settings?.notifyEmails ?? []).filter((address) => !leaving.has(address.toLowerCase()));
  const all = [...new Set([...listed, ...joining])];
  return notificationRecipients({ ...form, settings: { ...form.settings, notifyEmails: all } });
}

/** Whether a form's submissions may have anyone to email: its list, or a member who chose `instant`. */
export const anyRecipient = (form: Pick<Form, "id" | "settings">, members: readonly NotifiedMember[]) =>
  (form.settings?.notifyEmails ?? []).length > 0 ||
  members.some((m) => choiceFor(m.notifications, form.id) === "instant" && mayEmail(m));

/** Whether the member chose a `cadence` digest for anything (the organization, or a form). */
export const wantsDigest = (settings: NotificationSettings | undefined, cadence: DigestCadence) =>
  settings !== undefined && (settings.organization === cadence || Object.values(settings.forms).includes(cadence));
