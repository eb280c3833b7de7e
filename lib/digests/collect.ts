import { choiceFor } from "../notifications/member-choices";
import { shownUrl } from "../outbound/chat/kinds";
import { DEFAULT_CHAT_OPTIONS, leadMessage } from "../outbound/chat/message";
import { type EndpointFailure, listFailingEndpoints } from "../store/failing-endpoints";
import type { Form } from "../store/forms";
import type { DigestCadence, NotifiedMember } from "../store/member-notifications";
import { kindOf } from "../store/outbound-endpoints";
import type { LeadGrade } from "../store/shapes";
import { readSiteDays } from "../store/site-days";
import { newestFormSubmissions, type StoredSubmission } from "../store/submissions";
import { addDays, type Period } from "./schedule";
import { organizationForms } from "./scope";

/**
 * What one digest says (docs/notifications.md, "Digests"), read without a scan:
 * - the counts from the daily counts of the period's UTC days (one Query per site in the
 *   digest): new submissions per form (the inbox), and the spam each site caught (the daily
 *   counts keep spam per site, not per form);
 * - the leads from one page of each form's index over the period (the LEADS_PER_FORM newest, of
 *   the MAX_FORMS_READ busiest forms): the newest, the hottest, and the grades, counted over
 *   those pages (a busier form's grades are those of its newest LEADS_PER_FORM, and the digest
 *   says so); an imported submission (lib/import-job.ts) is a past lead, never one of a
 *   digest's leads, though the daily counts, and so the digest's counts, hold it on its own day;
 * - what fails: each site's failing endpoints (one Query of its failing list), those of the
 *   digest's forms.
 */

export const LEADS_PER_FORM = 50;
export const MAX_FORMS_READ = 20;
export const LEADS_LISTED = 5;
export const FAILURES_LISTED = 10;

export interface DigestLead {
  submissionId: string;
  formName: string;
  reference: string;
  receivedAt: string;
  grade: LeadGrade | null;
  score: number | null;
  test: boolean;
  name: string | null;
  email: string | null;
  link: string;
}

export interface DigestContent {
  cadence: DigestCadence;
  period: Period;
  /** New submissions in the inbox, over the digest's forms; spam caught on their sites. */
  totals: { inbox: number; spam: number };
  /** The digest's forms that received something, busiest first. */
  forms: { formId: string; name: string; siteName: string; inbox: number; link: string }[];
  /** How many of the digest's forms received nothing. */
  quietForms: number;
  sites: { siteId: string; name: string; inbox: number; spam: number; link: string }[];
  /** Grades of the leads read (`counted`, of `inbox` received); `ungraded`: not qualified yet. */
  grades: { hot: number; warm: number; cold: number; ungraded: number; counted: number };
  newest: DigestLead[];
  hottest: DigestLead[];
  failing: {
    formName: string;
    kind: string;
    target: string;
    status: EndpointFailure["status"];
    error: string | null;
    statusCode: number | null;
    failingSince: string;
    isEnabled: boolean;
    link: string;
  }[];
  /** The organization has more sites or forms than a digest reads (lib/digests/scope.ts). */
  truncated: boolean;
}

const GRADE_RANK: Record<LeadGrade, number> = { hot: 3, warm: 2, cold: 1 };

export async function collectDigest(
  member: NotifiedMember,
  cadence: DigestCadence,
  period: Period,
  baseUrl: string,
): Promise<DigestContent> {
  const base = baseUrl.replace(/\/+$/, "");
  const organization = await organizationForms(member.orgId);
  const inScope = organization.sites
    .map(({ site, forms }) => ({ site, forms: forms.filter((f) => choiceFor(member.notifications, f.id) === cadence) }))
    .filter(({ forms }) => forms.length > 0);
  const [counts, failing] = await Promise.all([
    Promise.all(inScope.map(({ site }) => readSiteDays(site.id, period.from, period.to))),
    Promise.all(inScope.map(({ site }) => listFailingEndpoints(site.id))),
  ]);

  const forms = inScope.flatMap(({ site, forms }, i) =>
    forms.map((form) => ({
      form,
      siteName: site.name,
      inbox: (counts[i] ?? []).reduce((sum, d) => sum + (d.byForm[form.id] ?? 0), 0),
    })),
  );
  const sites = inScope.map(({ site }, i) => {
    const siteDays = counts[i] ?? [];
    return {
      siteId: site.id,
      name: site.name,
      inbox: forms.filter((f) => f.form.siteId === site.id).reduce((sum, f) => sum + f.inbox, 0),
      spam: siteDays.reduce((sum, d) => sum + d.spam, 0),
      link: `${base}/sites/${encodeURIComponent(site.id)}`,
    };
  });
  const busy = forms.filter((f) => f.inbox > 0).sort((a, b) => b.inbox - a.inbox || (a.form.id < b.form.id ? -1 : 1));

  const range = { from: `${period.from}T00:00:00.000Z`, before: `${addDays(period.to, 1)}T00:00:00.000Z` };
  const pages = await Promise.all(
    busy.slice(0, MAX_FORMS_READ).map(async ({ form }) => ({
      form,
      page: await newestFormSubmissions(form.id, range, LEADS_PER_FORM),
    })),
  );
  const leads = pages.flatMap(({ form, page }) =>
    page.submissions.filter((s) => !s.isSpam && !s.imported).map((s) => digestLead(s, form, base)),
  );
  const grades = { hot: 0, warm: 0, cold: 0, ungraded: 0, counted: leads.length };
  for (const lead of leads) grades[lead.grade ?? "ungraded"]++;

  const byNewest = [...leads].sort((a, b) => (a.receivedAt < b.receivedAt ? 1 : a.receivedAt > b.receivedAt ? -1 : 0));
  const hottest = leads
    .filter((l) => l.grade === "hot" || l.grade === "warm")
    .sort((a, b) => GRADE_RANK[b.grade as LeadGrade] - GRADE_RANK[a.grade as LeadGrade] || (b.score ?? 0) - (a.score ?? 0))
    .slice(0, LEADS_LISTED);

  const formIds = new Map(forms.map((f) => [f.form.id, f.form.name]));
  const failures = failing
    .flat()
    .filter((e) => e.orgId === member.orgId && formIds.has(e.formId))
    .slice(0, FAILURES_LISTED)
    .map((e) => ({
      formName: formIds.get(e.formId) ?? "",
      kind: kindOf(e),
      target: e.description || shownUrl(e),
      status: e.failing.status,
      error: e.failing.error,
      statusCode: e.failing.statusCode,
      failingSince: e.failingSince,
      isEnabled: e.isEnabled,
      link: `${base}/forms/${encodeURIComponent(e.formId)}/webhooks/${encodeURIComponent(e.id)}`,
    }));

  return {
    cadence,
    period,
    totals: { inbox: forms.reduce((sum, f) => sum + f.inbox, 0), spam: sites.reduce((sum, s) => sum + s.spam, 0) },
    forms: busy.map(({ form, siteName, inbox }) => ({
      formId: form.id,
      name: form.name,
      siteName,
      inbox,
      link: `${base}/forms/${encodeURIComponent(form.id)}`,
    })),
    quietForms: forms.length - busy.length,
    sites,
    grades,
    newest: byNewest.slice(0, LEADS_LISTED),
    hottest,
    failing: failures,
    truncated: organization.truncated,
  };
}

/** Whether a digest has anything to say: an empty one is not sent. */
export const isEmpty = (content: DigestContent) =>
  content.totals.inbox === 0 && content.totals.spam === 0 && content.failing.length === 0;

function digestLead(submission: StoredSubmission, form: Form, base: string): DigestLead {
  // The chat message's reading of who filled the form (a name field, the reply-to address).
  const message = leadMessage(submission, form, submission.lead ?? null, { ...DEFAULT_CHAT_OPTIONS, maxFields: 0 }, base);
  return {
    submissionId: submission.id,
    formName: message.formName,
    reference: message.reference ?? "",
    receivedAt: submission.createdAt,
    grade: submission.lead?.grade ?? null,
    score: submission.lead?.score ?? null,
    test: submission.lead?.test === true,
    name: message.submitter?.name ?? null,
    email: message.submitter?.email ?? null,
    link: message.link,
  };
}
