import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { card, Loading, PageHeader } from "../../components/ui/page";
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

function Busiest({ siteId, overview }: { siteId: string; overview: Overview }) {
  return (
    <div className="mb-8 grid gap-6 md:grid-cols-2">
      <section aria-labelledby="busiest-sources" className={card}>
        <h2 id="busiest-sources" className="mb-2 text-lg font-semibold">
          Busiest sources
        </h2>
        {overview.topSources.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">No source brought an inbox submission in these 30 days.</p>
        ) : (
          <ol className="space-y-1">
            {overview.topSources.map((s) => (
              <li key={s.webhookId} className="flex justify-between gap-4">
                {s.name === null ? (
                  <span className="italic">A deleted source</span>
                ) : (
                  <Link to="/sites/$siteId/sources" params={{ siteId }} search={{}}>
                    {s.name}
                  </Link>
                )}
                <span className="tabular-nums">{s.count}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="busiest-forms" className={card}>
        <h2 id="busiest-forms" className="mb-2 text-lg font-semibold">
          Busiest forms
        </h2>
        {overview.topForms.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">No form received an inbox submission in these 30 days.</p>
        ) : (
          <ol className="space-y-1">
            {overview.topForms.map((f) => (
              <li key={f.formId} className="flex justify-between gap-4">
                {f.name === null ? (
                  <span className="italic">A deleted form</span>
                ) : (
                  <Link to="/forms/$formId" params={{ formId: f.formId }} search={{}}>
                    {f.name}
                  </Link>
                )}
                <span className="tabular-nums">{f.count}</span>
              </li>
            ))}
          </ol>
        )}
      </section>
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
        <p className="text-sm text-slate-600 dark:text-slate-300">None: every outbound webhook's latest delivery went through.</p>
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
              <p className="break-all text-sm text-slate-600 dark:text-slate-300">{f.url}</p>
              <p className="mt-1 text-sm">
                <strong>{f.status === "failed" ? "Failed: gave up retrying" : "Retrying"}</strong>
                {f.statusCode !== null ? ` · answered ${f.statusCode}` : ""}
                {f.error ? ` · ${f.error}` : ""}
              </p>
              <p className="text-sm text-slate-600 dark:text-slate-300">
                Last failure <span title={formatDateTime(f.failedAt)}>{formatAgo(f.failedAt)}</span>, failing since{" "}
                {formatDateTime(f.failingSince)}
                {f.nextAttemptAt ? `; next attempt ${formatDateTime(f.nextAttemptAt)}` : ""}
                {!f.isEnabled ? `; disabled${f.disabledReason ? `: ${f.disabledReason}` : ""}` : ""}
              </p>
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
