/**
 * Email address shapes, checked in linear time. The obvious regex, `^[^\s@]+@[^\s@]+\.[^\s@]+$`,
 * backtracks: on a domain of many dots that never ends the way `$` wants, each dot restarts the
 * scan to the end, so a 10,000-character field costs quadratic time on every intake, field
 * inference and lead rule that looks at it. Here each character is looked at a bounded number of
 * times: the address is split at its last `@`, each part is checked by a single character class
 * (linear), and the domain's dot is found with `indexOf`.
 */

/** Whether `domain` has a dot with at least one character before and after it. */
const hasInnerDot = (domain: string) => {
  const dot = domain.indexOf(".", 1);
  return dot > 0 && dot < domain.length - 1;
};

const NO_SPACE_OR_AT = /^[^\s@]+$/;

/** `local@domain.tld` with no space and exactly one `@` (what intake and the lead rules call an email). */
export function looksLikeEmail(value: string): boolean {
  const text = value.trim();
  const at = text.indexOf("@");
  if (at <= 0 || text.indexOf("@", at + 1) !== -1) return false;
  const domain = text.slice(at + 1);
  return NO_SPACE_OR_AT.test(text.slice(0, at)) && NO_SPACE_OR_AT.test(domain) && hasInnerDot(domain);
}

const PLAIN_LOCAL = /^[^\s<>,;:"()[\]\\]+$/;
const PLAIN_DOMAIN = /^[^\s<>,;:"()[\]\\@]+$/;

/** A plain address SES accepts in Reply-To: no display name, no list, nothing to inject. */
export function isPlainAddress(text: string): boolean {
  const at = text.lastIndexOf("@");
  if (at <= 0) return false;
  const domain = text.slice(at + 1);
  return PLAIN_LOCAL.test(text.slice(0, at)) && PLAIN_DOMAIN.test(domain) && hasInnerDot(domain);
}
