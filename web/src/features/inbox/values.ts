/** A submission's field values as text ("a, b" for multi-valued fields). */
export const valueText = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? value.join(", ") : (value ?? "");

const PREFERRED = ["name", "full_name", "first_name", "email", "phone", "company", "message"];

/** The two or three values that say who sent it: name and email first, else the first fields. */
export function mainValues(data: Record<string, string | string[]>, max = 3): { key: string; value: string }[] {
  const keys = Object.keys(data);
  const ordered = [...PREFERRED.filter((k) => k in data), ...keys.filter((k) => !PREFERRED.includes(k))];
  return ordered.slice(0, max).map((key) => ({ key, value: valueText(data[key]) }));
}

/** What each spam signal means, in words (docs/spam.md lists them). */
export const SIGNAL_LABELS: Record<string, string> = {
  honeypot: "Hidden trap field filled in",
  too_fast: "Sent faster than a person types",
  missing_referer: "No page it was sent from",
  bot_user_agent: "Sent by a bot or script",
  duplicate: "Same content sent before",
  ip_rate: "Many submissions from one address",
  excessive_urls: "Many links",
  spam_phrases: "Spam phrases",
};

export const signalLabel = (name: string) => SIGNAL_LABELS[name] ?? name.replaceAll("_", " ");

/** Above this score intake flags a submission as spam (docs/spam.md); at or below it, a person did. */
export const SPAM_THRESHOLD = 70;

/** A lead grade in words: "Hot lead", "Warm lead", "Cold lead" (docs/leads.md). */
export const gradeLabel = (grade: string) => `${grade.charAt(0).toUpperCase()}${grade.slice(1)} lead`;
