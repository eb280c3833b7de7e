import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { formatAgo, formatDateTime } from "../../lib/format";
import { DailyChart } from "./daily-chart";
import { type Overview, overviewQuery } from "./queries";

const route = getRouteApi("/app/sites/$siteId/");

const percent = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 1 });

function Totals({ totals }: { totals: Overview["totals"] }) {
  const items: [string, string][] = [
    ["In the inbox", String(totals.inbox)],
    ["Spam", String(totals.spam)],
    ["Share of spam", percent.format(totals.spamShare)],
  ];
  return (
    <dl className="mb-8 grid gap-3 sm:grid-cols-3">
      {items.map(([label, value]) => (
        <div key={label} className={card}>
          <dt className="text-sm text-slate-600 dark:text-slate-300">{label}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** One "busiest" list: a title, its rows (a link, or words for a deleted one) and an empty state. */
function TopList({
  id,
  title,
  empty,
  rows,
}: {
  id: string;
  title: string;
  empty: string;
  rows: { key: string; count: number; link: ReactNode }[];
}) {
  return (
    <section aria-labelledby={id} className={card}>
      <h2 id={id} className="mb-2 text-lg font-semibold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <Muted>{empty}</Muted>
      ) : (
        <ol className="space-y-1">
          {rows.map((row) => (
            <li key={row.key} className="flex justify-between gap-4">
              {row.link}
              <span className="tabular-nums">{row.count}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const deleted = (what: string) => <span className="italic">A deleted {what}</span>;

function Busiest({ siteId, overview }: { siteId: string; overview: Overview }) {
  return (
    <div className="mb-8 grid gap-6 md:grid-cols-2">
      <TopList
        id="busiest-sources"
        title="Busiest sources"
        empty="No source brought an inbox submission in these 30 days."
        rows={overview.topSources.map((s) => ({
          key: s.webhookId,
          count: s.count,
          link:
            s.name === null ? (
              deleted("source")
            ) : (
              <Link to="/sites/$siteId/sources" params={{ siteId }} search={{}}>
                {s.name}
              </Link>
            ),
        }))}
      />
      <TopList
        id="busiest-forms"
        title="Busiest forms"
        empty="No form received an inbox submission in these 30 days."
        rows={overview.topForms.map((f) => ({
          key: f.formId,
          count: f.count,
          link:
            f.name === null ? (
              deleted("form")
            ) : (
              <Link to="/forms/$formId" params={{ formId: f.formId }} search={{}}>
                {f.name}
              </Link>
            ),
        }))}
      />
    </div>
  );
}

function FailingDeliveries({ failing }: { failing: Overview["failingDeliveries"] }) {
  return (
    <section aria-labelledby="failing-deliveries" className="mb-8">
      <h2 id="failing-deliveries" className="mb-2 text-lg font-semibold">
        Outbound deliveries failing now
      </h2>
      {failing.length === 0 ? (
        <Muted>None: every outbound webhook's latest delivery went through.</Muted>
      ) : (
        <ul className="space-y-3">
          {failing.map((f) => (
            <li key={f.endpointId} className={card}>
              <p className="font-medium">
                {/* The form's webhooks pages are their own routes; a plain link keeps this page free of their code. */}
                <a href={`/forms/${encodeURIComponent(f.formId)}/webhooks/${encodeURIComponent(f.endpointId)}`}>
                  {f.description ?? f.url}
                </a>{" "}
                <span className="text-sm font-normal text-slate-600 dark:text-slate-300">
                  for {f.formName === null ? "a deleted form" : `the form “${f.formName}”`}
                </span>
              </p>
              <Muted className="break-all">{f.url}</Muted>
              <p className="mt-1 text-sm">
                <strong>{f.status === "failed" ? "Failed: gave up retrying" : "Retrying"}</strong>
                {f.statusCode !== null ? ` · answered ${f.statusCode}` : ""}
                {f.error ? ` · ${f.error}` : ""}
              </p>
              <Muted>
                Last failure <span title={formatDateTime(f.failedAt)}>{formatAgo(f.failedAt)}</span>, failing since{" "}
                {formatDateTime(f.failingSince)}
                {f.nextAttemptAt ? `; next attempt ${formatDateTime(f.nextAttemptAt)}` : ""}
                {!f.isEnabled ? `; disabled${f.disabledReason ? `: ${f.disabledReason}` : ""}` : ""}
              </Muted>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A site's first page: the last 30 days at a glance, from the counts the pipeline keeps. */
export function OverviewPage() {
  const { siteId } = route.useParams();
  const overview = useQuery(overviewQuery(siteId));
  return (
    <>
      <PageHeader title="Overview" description="The last 30 days of this site, counted as submissions arrive." />
      {overview.isPending ? (
        <Loading />
      ) : overview.isError ? (
        <p role="alert">{overview.error.message}</p>
      ) : (
        <>
          <Totals totals={overview.data.totals} />
          <section aria-labelledby="per-day" className={`${card} mb-8`}>
            <h2 id="per-day" className="mb-2 text-lg font-semibold">
              Submissions per day
            </h2>
            {overview.data.totals.inbox + overview.data.totals.spam === 0 ? (
              <p>
                Nothing arrived in the last 30 days.{" "}
                <Link to="/sites/$siteId/sources" params={{ siteId }} search={{}}>
                  Add a source
                </Link>{" "}
                and send a first submission: it shows here as soon as it is stored.
              </p>
            ) : (
              <DailyChart days={overview.data.days} caption="Submissions per day, last 30 days" />
            )}
          </section>
          <Busiest siteId={siteId} overview={overview.data} />
          <FailingDeliveries failing={overview.data.failingDeliveries} />
        </>
      )}
    </>
  );
}
