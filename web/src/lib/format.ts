const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

/** A timestamp as the person's locale writes it ("24 Nov 2026, 11:05"). */
export const formatDateTime = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : "—");

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "long" });

/** A day as the person's locale writes it ("24 November 2026"). */
export const formatDate = (iso: string | null | undefined): string => (iso ? dateOnly.format(new Date(iso)) : "—");

/** How long ago, in words ("3 minutes ago"), for lists where the exact time is in the title. */
export function formatAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  const steps: [Intl.RelativeTimeFormatUnit, number][] = [
    ["second", 60],
    ["minute", 60],
    ["hour", 24],
    ["day", 30],
    ["month", 12],
  ];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return relative.format(value, unit);
    value = Math.round(value / size);
  }
  return relative.format(value, "year");
}

/** The origin a return path is resolved against to see where a browser would take it. */
const PLACEHOLDER_ORIGIN = "https://inlet.invalid";

/**
 * C0 controls, DEL, C1 controls and the backslash. The URL parser a browser reads a path with
 * removes tabs and newlines wherever they are (`/\t/evil.example` becomes `//evil.example`),
 * trims leading controls and spaces, and reads `\` as `/` in http(s) URLs (`/\evil.example`);
 * no path of the dashboard holds any of them.
 * https://url.spec.whatwg.org/#concept-basic-url-parser
 */
const unsafeCode = (code: number) => code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x5c;

/**
 * A path to go back to after signing in: only a path of this origin ("/sites/x?q=1"), never
 * another site ("//evil.example", "https://…", "/\t/evil.example"), so the sign-in page cannot be
 * an open redirect, whatever the router in front of it strips or keeps. A value holding a control
 * character or a backslash is refused outright; what is left must start with one slash and resolve
 * to the page's own origin. Cases: test/standalone/unit/return-path.test.ts (OWASP's open-redirect tricks).
 */
export function safeReturnPath(value: string | undefined): string {
  if (!value?.startsWith("/") || value.startsWith("//")) return "/";
  for (let i = 0; i < value.length; i++) if (unsafeCode(value.charCodeAt(i))) return "/";
  return new URL(value, PLACEHOLDER_ORIGIN).origin === PLACEHOLDER_ORIGIN ? value : "/";
}

/**
 * A plain anchor of a page (`#notifications`, where a digest's link points) to keep through
 * sign-in, with or without its `#`; "" for any other fragment: emailed tokens live in fragments,
 * and a fragment must never reach a `?redirect=` that servers log.
 */
export function keptAnchor(hash: string): string {
  const id = hash.startsWith("#") ? hash.slice(1) : hash;
  return /^[a-z][a-z-]{0,40}$/.test(id) ? `#${id}` : "";
}
