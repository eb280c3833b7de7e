import type { NotificationChoice, NotificationSettings } from "./queries";

/** What each choice is called on the page (docs/notifications.md, "Who gets what"). */
export const CHOICE_WORDS: Record<NotificationChoice, string> = {
  instant: "An email per submission",
  daily: "A daily digest",
  weekly: "A weekly digest",
  off: "Nothing",
};

export const CHOICES = Object.keys(CHOICE_WORDS) as NotificationChoice[];

export const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** What applies to a form, in words: a choice, or (none) what its notification list does. */
export function effectiveWords(choice: NotificationChoice | null, listed: boolean): string {
  if (choice) return CHOICE_WORDS[choice];
  return listed ? "An email per submission (you are on its notification list)" : "Nothing (you are not on its notification list)";
}

/** The browser's zone, and every zone the browser knows (with the saved one, should it not list it). */
export function timeZones(saved: string | null): { current: string; all: string[] } {
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const current = saved ?? browser;
  const all = Intl.supportedValuesOf("timeZone");
  return { current, all: all.includes(current) ? all : [current, ...all] };
}

/** When the next digest goes, on the person's clock ("Tue 12 May, 08:00"). */
export function nextDigestWords(settings: NotificationSettings, zone: string): string[] {
  const format = (iso: string) =>
    new Intl.DateTimeFormat(undefined, {
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: zone,
    }).format(new Date(iso));
  return [
    ...(settings.nextDigests.daily ? [`Next daily digest: ${format(settings.nextDigests.daily)}`] : []),
    ...(settings.nextDigests.weekly ? [`Next weekly digest: ${format(settings.nextDigests.weekly)}`] : []),
  ];
}
