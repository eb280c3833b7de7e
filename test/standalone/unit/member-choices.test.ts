import { anyRecipient, choiceFor, submissionRecipients, wantsDigest } from "../../../lib/notifications/member-choices";
import type { NotificationSettings, NotifiedMember } from "../../../lib/store/member-notifications";

/** Who gets the per-submission email: the form's list with the members' choices applied (lib/notifications/member-choices.ts). */

const settings = (
  organization: NotificationSettings["organization"],
  forms: NotificationSettings["forms"] = {},
): NotificationSettings => ({
  organization,
  forms,
  digestHour: 8,
  digestWeekday: 1,
  updatedAt: "2026-05-12T00:00:00.000Z",
});

const member = (email: string, notifications?: NotificationSettings, state: Partial<NotifiedMember> = {}): NotifiedMember => ({
  userId: `usr_${email.split("@")[0]}`,
  orgId: "org_1",
  email,
  emailVerifiedAt: "2026-05-01T00:00:00.000Z",
  ...(notifications ? { notifications } : {}),
  ...state,
});

const form = (notifyEmails: string[], suppressed: string[] = []) => ({
  id: "form_a",
  settings: { notifyEmails },
  ...(suppressed.length
    ? { suppressedRecipients: Object.fromEntries(suppressed.map((a) => [a, { reason: "bounce" as const, at: "x" }])) }
    : {}),
});

test("a form's own choice wins, then the organization's, else none", () => {
  expect(choiceFor(undefined, "form_a")).toBeNull();
  expect(choiceFor(settings(null), "form_a")).toBeNull();
  expect(choiceFor(settings("daily"), "form_a")).toBe("daily");
  expect(choiceFor(settings("daily", { form_a: "off" }), "form_a")).toBe("off");
  expect(choiceFor(settings(null, { form_b: "instant" }), "form_a")).toBeNull();
  // A form id named like an Object.prototype key is an ordinary key.
  expect(choiceFor(settings("weekly"), "constructor")).toBe("weekly");
});

test("no choice: the list decides, as before; addresses that are not members are untouched", () => {
  const members = [member("ada@example.com"), member("bob@example.com", settings(null))];
  expect(submissionRecipients(form(["ada@example.com", "sales@example.com"]), members)).toEqual({
    to: ["ada@example.com", "sales@example.com"],
    suppressed: 0,
  });
});

test("instant adds a member who is not listed; daily, weekly and off take a listed member out", () => {
  const members = [
    member("ada@example.com", settings("instant")),
    member("bob@example.com", settings(null, { form_a: "daily" })),
    member("cy@example.com", settings("weekly")),
    member("di@example.com", settings("off")),
  ];
  const listed = ["Bob@Example.com", "cy@example.com", "di@example.com", "sales@example.com"];
  expect(submissionRecipients(form(listed), members).to).toEqual(["sales@example.com", "ada@example.com"]);
  expect(anyRecipient(form([]), members)).toBe(true);
  expect(anyRecipient(form([]), members.slice(1))).toBe(false);
});

test("only a proved address that is still the member's is added; a choice that takes mail away applies anyway", () => {
  const unverified = member("eve@example.com", settings("instant"), { emailVerifiedAt: undefined });
  delete unverified.emailVerifiedAt;
  const lost = member("lost@example.com", settings("instant"), { emailLostAt: "2026-05-02T00:00:00.000Z" });
  const offButUnverified = member("fay@example.com", settings("off"));
  delete offButUnverified.emailVerifiedAt;
  // The lost address is someone else's now: their list entry stays whatever the old holder chose.
  const lostOff = member("gone@example.com", settings("off"), { emailLostAt: "2026-05-02T00:00:00.000Z" });
  const { to } = submissionRecipients(form(["fay@example.com", "gone@example.com"]), [
    unverified,
    lost,
    offButUnverified,
    lostOff,
  ]);
  expect(to).toEqual(["gone@example.com"]);
  expect(anyRecipient(form([]), [unverified, lost])).toBe(false);
});

test("suppressed addresses are left out and counted, members' included; nobody is listed twice", () => {
  const members = [member("ada@example.com", settings("instant")), member("bob@example.com", settings("instant"))];
  expect(submissionRecipients(form(["ada@example.com", "sales@example.com"], ["bob@example.com"]), members)).toEqual({
    to: ["ada@example.com", "sales@example.com"],
    suppressed: 1,
  });
});

test("a digest is wanted when the organization or any form asks for it", () => {
  expect(wantsDigest(undefined, "daily")).toBe(false);
  expect(wantsDigest(settings("daily"), "daily")).toBe(true);
  expect(wantsDigest(settings("daily"), "weekly")).toBe(false);
  expect(wantsDigest(settings("off", { form_x: "weekly" }), "weekly")).toBe(true);
});
