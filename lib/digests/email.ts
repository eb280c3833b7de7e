import type { EmailContent } from "../aws/ses";
import { escapeHtml } from "../notifications/email";
import type { DigestContent, DigestLead } from "./collect";

/**
 * A digest as an email (docs/notifications.md, "Digests"): pure, so its content is tested without
 * SES. Form, site and submitter names are user text: HTML-escaped in the HTML part, never in the
 * subject, which holds only counts and dates. Times are the member's local time; the period is the
 * UTC days the daily counts are kept in, and the email says so.
 */

const MONTH_DAY = { day: "numeric", month: "short", timeZone: "UTC" } as const;
const dayLabel = (day: string, options: Intl.DateTimeFormatOptions = MONTH_DAY) =>
  new Intl.DateTimeFormat("en-GB", options).format(new Date(`${day}T00:00:00.000Z`));

/** "12 May" for one day, "4 May – 10 May" for several (UTC days). */
export function periodLabel(period: DigestContent["period"]): string {
  return period.from === period.to ? dayLabel(period.to) : `${dayLabel(period.from)} – ${dayLabel(period.to)}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en-GB")} ${n === 1 ? one : many}`;

/** When a lead came, on the member's clock: "Tue 12 May, 09:14". */
const localTime = (iso: string, zone: string) =>
  new Intl.DateTimeFormat("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone: zone,
  }).format(new Date(iso));

const gradeWords = (lead: DigestLead) =>
  lead.grade ? `${lead.grade}${lead.score !== null ? ` ${lead.score}` : ""}${lead.test ? " (test lead)" : ""}` : "not graded yet";

const who = (lead: DigestLead) => [lead.name, lead.email].filter(Boolean).join(" · ") || "(no name given)";

export function digestSubject(content: DigestContent): string {
  const what =
    content.totals.inbox > 0
      ? `${plural(content.totals.inbox, "new submission")}${content.grades.hot > 0 ? `, ${content.grades.hot} hot` : ""}`
      : content.failing.length > 0
        ? plural(content.failing.length, "failing endpoint")
        : `${plural(content.totals.spam, "spam submission")} caught`;
  return `${content.cadence === "daily" ? "Daily" : "Weekly"} digest: ${what} (${periodLabel(content.period)})`;
}

export interface DigestEmailInput {
  content: DigestContent;
  to: string;
  zone: string;
  /** Where the member changes or stops their digests: the account page's section. */
  settingsLink: string;
}

export function digestEmail({ content, to, zone, settingsLink }: DigestEmailInput): EmailContent {
  const { totals, grades } = content;
  const sampled = grades.counted < totals.inbox;
  const gradeLine = `Grades: ${grades.hot} hot, ${grades.warm} warm, ${grades.cold} cold${grades.ungraded ? `, ${grades.ungraded} not graded yet` : ""}${sampled ? ` (of the newest ${grades.counted} of ${totals.inbox})` : ""}`;
  const leadLine = (lead: DigestLead) =>
    `${lead.reference} · ${lead.formName} · ${gradeWords(lead)} · ${who(lead)} · ${localTime(lead.receivedAt, zone)}`;
  const title = `${content.cadence === "daily" ? "Daily" : "Weekly"} digest for ${periodLabel(content.period)} (UTC)`;
  const why = `You get this ${content.cadence} digest because you chose it for these forms. Change or stop it on your account page: ${settingsLink}`;

  const text = [
    title,
    "",
    `New submissions: ${totals.inbox}`,
    `Spam caught: ${totals.spam}`,
    ...(totals.inbox > 0 ? [gradeLine] : []),
    "",
    ...(content.forms.length > 0
      ? ["By form:", ...content.forms.map((f) => `  ${f.name} (${f.siteName}): ${f.inbox}  ${f.link}`), ""]
      : []),
    ...(content.quietForms > 0 ? [`${plural(content.quietForms, "other form")}: nothing new.`, ""] : []),
    ...(content.hottest.length > 0
      ? ["Hottest leads:", ...content.hottest.flatMap((l) => [`  ${leadLine(l)}`, `    ${l.link}`]), ""]
      : []),
    ...(content.newest.length > 0
      ? ["Newest:", ...content.newest.flatMap((l) => [`  ${leadLine(l)}`, `    ${l.link}`]), ""]
      : []),
    ...(content.failing.length > 0
      ? [
          "Failing now:",
          ...content.failing.flatMap((f) => [
            `  ${f.kind} ${f.target} (${f.formName}): ${f.error ?? `HTTP ${f.statusCode}`}, failing since ${localTime(f.failingSince, zone)}${f.isEnabled ? "" : ", disabled"}`,
            `    ${f.link}`,
          ]),
          "",
        ]
      : []),
    ...(content.truncated ? ["This organization has more sites or forms than a digest covers: see the dashboard.", ""] : []),
    why,
  ].join("\n");

  const cell = "padding:4px 10px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left";
  const link = (href: string, label: string) => `<a href="${escapeHtml(href)}" style="color:#3730a3">${escapeHtml(label)}</a>`;
  const leadRows = (list: DigestLead[]) =>
    list
      .map(
        (l) =>
          `<tr><td style="${cell}">${link(l.link, l.reference)}</td><td style="${cell}">${escapeHtml(l.formName)}</td>` +
          `<td style="${cell}">${escapeHtml(gradeWords(l))}</td><td style="${cell}">${escapeHtml(who(l))}</td>` +
          `<td style="${cell};white-space:nowrap">${escapeHtml(localTime(l.receivedAt, zone))}</td></tr>`,
      )
      .join("");
  const section = (heading: string, body: string) =>
    `<h3 style="margin:20px 0 6px;font-size:15px">${escapeHtml(heading)}</h3>${body}`;
  const table = (rows: string) => `<table style="border-collapse:collapse">${rows}</table>`;

  const html = [
    "<!doctype html>",
    '<html><body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#111827">',
    `<h2 style="margin:0 0 8px">${escapeHtml(title)}</h2>`,
    `<p style="margin:0 0 4px"><strong>${totals.inbox}</strong> new submissions · <strong>${totals.spam}</strong> spam caught</p>`,
    totals.inbox > 0 ? `<p style="margin:0 0 4px">${escapeHtml(gradeLine)}</p>` : "",
    content.forms.length > 0
      ? section(
          "By form",
          table(
            content.forms
              .map(
                (f) =>
                  `<tr><td style="${cell}">${link(f.link, f.name)}</td><td style="${cell}">${escapeHtml(f.siteName)}</td><td style="${cell}">${f.inbox}</td></tr>`,
              )
              .join(""),
          ),
        )
      : "",
    content.quietForms > 0
      ? `<p style="color:#4b5563">${escapeHtml(plural(content.quietForms, "other form"))}: nothing new.</p>`
      : "",
    content.hottest.length > 0 ? section("Hottest leads", table(leadRows(content.hottest))) : "",
    content.newest.length > 0 ? section("Newest", table(leadRows(content.newest))) : "",
    content.failing.length > 0
      ? section(
          "Failing now",
          `<ul style="margin:0;padding-left:20px">${content.failing
            .map(
              (f) =>
                `<li>${escapeHtml(`${f.kind} ${f.target} (${f.formName}): ${f.error ?? `HTTP ${f.statusCode}`}, failing since ${localTime(f.failingSince, zone)}${f.isEnabled ? "" : ", disabled"}`)} · ${link(f.link, "delivery log")}</li>`,
            )
            .join("")}</ul>`,
        )
      : "",
    content.truncated
      ? `<p style="color:#4b5563">This organization has more sites or forms than a digest covers: see the dashboard.</p>`
      : "",
    `<p style="color:#6b7280;font-size:12px;margin-top:24px">You get this ${content.cadence} digest because you chose it for these forms. ${link(settingsLink, "Change or stop it on your account page")}.</p>`,
    "</body></html>",
  ].join("\n");

  return { to: [to], subject: digestSubject(content), html, text };
}
