import { looksLikeEmail } from "./email-address";
import { looksLikePhone } from "./intake/mapping";
import type { FieldType } from "./store/forms";
import type { Lead, RawValue } from "./store/shapes";

export type { Lead } from "./store/shapes";

/** What the rules look at: the stored data, the form's field types, the submission's metadata. */
export interface LeadContext {
  data: Record<string, RawValue>;
  fieldTypes: Record<string, FieldType>;
  ads?: Record<string, string | boolean>;
  isTest?: boolean;
}

export interface LeadRule {
  name: string;
  /** Points and the reason when the rule applies; undefined when it does not. */
  evaluate: (ctx: LeadContext) => { points: number; reason: string } | undefined;
}

/** Grades by score (docs/leads.md). */
export const GRADES = { hot: 70, warm: 40 } as const;

/** Free-mail providers: a real person, but not a company address. */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  "gmail.com",
  "googlemail.com",
  "yahoo.com",
  "yahoo.co.uk",
  "yahoo.fr",
  "ymail.com",
  "hotmail.com",
  "hotmail.co.uk",
  "hotmail.fr",
  "outlook.com",
  "live.com",
  "msn.com",
  "aol.com",
  "icloud.com",
  "me.com",
  "mac.com",
  "proton.me",
  "protonmail.com",
  "gmx.com",
  "gmx.de",
  "gmx.net",
  "web.de",
  "mail.com",
  "yandex.com",
  "yandex.ru",
  "zoho.com",
  "qq.com",
  "163.com",
  "126.com",
  "mail.ru",
  "fastmail.com",
  "tutanota.com",
  "hey.com",
]);

/** Throwaway inboxes: almost never a real lead. */
export const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  "mailinator.com",
  "guerrillamail.com",
  "guerrillamail.net",
  "10minutemail.com",
  "tempmail.com",
  "temp-mail.org",
  "yopmail.com",
  "trashmail.com",
  "sharklasers.com",
  "getnada.com",
  "dispostable.com",
  "throwawaymail.com",
  "maildrop.cc",
  "fakeinbox.com",
  "mintemail.com",
  "mohmal.com",
  "emailondeck.com",
  "tempmailo.com",
]);

/** A field holding the submitter's company, by its key (the lead rules, the search keys: lib/search-keys.ts). */
export const COMPANY_KEY = /company|organi[sz]ation|business|employer/i;

const firstText = (value: RawValue | undefined) => (Array.isArray(value) ? (value[0] ?? "") : (value ?? "")).trim();

/** The first non-empty value of a field whose type is `type` or whose key matches `keyPattern`. */
function find(ctx: LeadContext, type: FieldType | undefined, keyPattern: RegExp): string {
  for (const [key, value] of Object.entries(ctx.data)) {
    const text = firstText(value);
    if (!text) continue;
    if ((type && ctx.fieldTypes[key] === type) || keyPattern.test(key)) return text;
  }
  return "";
}

const email = (ctx: LeadContext) => {
  const byField = find(ctx, "email", /e-?mail/i);
  if (looksLikeEmail(byField)) return byField.toLowerCase();
  const any = Object.values(ctx.data).map(firstText).find(looksLikeEmail);
  return any?.toLowerCase() ?? "";
};

/** The rules, one object each: a new rule is one more entry (docs/leads.md lists them). */
export const LEAD_RULES: readonly LeadRule[] = [
  {
    name: "email_domain",
    evaluate: (ctx) => {
      const address = email(ctx);
      if (!address) return undefined;
      const domain = address.split("@")[1] ?? "";
      if (DISPOSABLE_DOMAINS.has(domain)) return { points: -30, reason: `disposable email domain (${domain})` };
      if (FREE_MAIL_DOMAINS.has(domain)) return { points: 10, reason: `free-mail address (${domain})` };
      return { points: 30, reason: `business email domain (${domain})` };
    },
  },
  {
    name: "phone",
    evaluate: (ctx) => {
      const phone = find(ctx, "phone", /phone|tel\b|mobile|cell/i);
      return phone && looksLikePhone(phone) ? { points: 20, reason: "plausible phone number" } : undefined;
    },
  },
  {
    name: "company_or_title",
    evaluate: (ctx) => {
      const company = find(ctx, undefined, COMPANY_KEY);
      const title = find(ctx, undefined, /job.?title|position|^title$|^role$|job.?role/i);
      if (!company && !title) return undefined;
      return {
        points: 20,
        reason: company && title ? "company and job title given" : company ? "company given" : "job title given",
      };
    },
  },
  {
    name: "message_length",
    evaluate: (ctx) => {
      const message = find(ctx, "textarea", /message|comment|details|description|enquiry|inquiry|notes/i);
      if (message.length >= 50) return { points: 10, reason: "detailed message" };
      return undefined;
    },
  },
  {
    name: "ad_attribution",
    evaluate: (ctx) =>
      ctx.ads && (ctx.ads.gcl_id || ctx.ads.campaign_id) ? { points: 15, reason: "came from an ad campaign" } : undefined,
  },
  {
    name: "name",
    evaluate: (ctx) => (find(ctx, "name", /name/i) ? { points: 5, reason: "name given" } : undefined),
  },
];

/**
 * Qualifies a submission: the sum of the rules' points, clamped to 0..100, graded hot (≥ 70),
 * warm (≥ 40) or cold. Test leads are graded apart: scored the same, but always cold and marked
 * `test`, so a campaign's test button never looks like a hot lead.
 */
export function qualifyLead(ctx: LeadContext): Lead {
  const reasons: string[] = [];
  let total = 0;
  for (const rule of LEAD_RULES) {
    const outcome = rule.evaluate(ctx);
    if (!outcome) continue;
    total += outcome.points;
    reasons.push(outcome.reason);
  }
  const score = Math.max(0, Math.min(100, total));
  if (ctx.isTest) {
    return { score, grade: "cold", reasons: [...reasons, "test lead (graded apart)"], test: true };
  }
  const grade = score >= GRADES.hot ? "hot" : score >= GRADES.warm ? "warm" : "cold";
  return { score, grade, reasons };
}
