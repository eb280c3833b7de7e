import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { card, PageHeader } from "../components/ui/page";
import { CreateSiteForm } from "../features/sites/create-site";
import { siteQuery } from "../features/sites/queries";
import { CreateSourceForm } from "../features/sources/create-source";
import { type CreatedSource, sourceQuery } from "../features/sources/queries";
import { CreatedSourceSetup } from "../features/sources/source-setup";

function Step({ n, title, done, children }: { n: number; title: string; done: boolean; children?: ReactNode }) {
  return (
    <li className={card}>
      <h2 className="text-lg font-medium">
        <span className="mr-2 inline-block w-6 text-slate-500 dark:text-slate-400">{n}.</span>
        {title}
        {done && <span className="ml-2 text-sm text-green-700 dark:text-green-400">Done</span>}
      </h2>
      {children && <div className="mt-4">{children}</div>}
    </li>
  );
}

/** Until the source's first submission arrives, the page waits visibly and polls. */
function FirstSubmission({
  siteId,
  source,
}: {
  siteId: string;
  source: { lastReceivedAt: string | null; formId: string | null } | undefined;
}) {
  // When it last received one, not how many it holds: deleting that first submission keeps it arrived.
  if (!source || source.lastReceivedAt === null) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm">
        <span aria-hidden="true" className="inline-block h-3 w-3 animate-pulse rounded-full bg-indigo-600" />
        Waiting for your first submission… Send one with any snippet above; this page checks every few seconds.
      </p>
    );
  }
  return (
    <p role="status" className="text-sm">
      Your first submission arrived.{" "}
      {source.formId ? (
        <Link to="/forms/$formId" params={{ formId: source.formId }} search={{}}>
          Open the inbox
        </Link>
      ) : (
        <Link to="/sites/$siteId" params={{ siteId }} search={{}}>
          Open the site
        </Link>
      )}
    </p>
  );
}

/**
 * A first-time user's path, across two features: a site (sites), a source and its snippet
 * (sources), and the first submission arriving.
 */
export function Onboarding({ siteId, onSiteCreated }: { siteId?: string | undefined; onSiteCreated: (siteId: string) => void }) {
  const [created, setCreated] = useState<CreatedSource>();
  const site = useQuery({ ...siteQuery(siteId ?? ""), enabled: siteId !== undefined });
  const source = useQuery({
    ...sourceQuery(siteId ?? "", created?.id ?? ""),
    enabled: siteId !== undefined && created !== undefined,
    refetchInterval: (query) => ((query.state.data?.lastReceivedAt ?? null) !== null ? false : 3000),
  });
  const arrived = (source.data?.lastReceivedAt ?? null) !== null;
  return (
    <>
      <PageHeader title="Welcome to Inlet" description="Four steps to your first lead. It takes about two minutes." />
      <ol className="flex flex-col gap-4">
        <Step n={1} title="Create a site" done={siteId !== undefined}>
          {siteId === undefined && <CreateSiteForm onCreated={onSiteCreated} submitLabel="Create site" />}
        </Step>
        <Step n={2} title="Create a source" done={created !== undefined}>
          {siteId !== undefined && created === undefined && <CreateSourceForm siteId={siteId} onCreated={setCreated} />}
        </Step>
        <Step n={3} title="Paste the snippet into your site" done={arrived}>
          {siteId !== undefined && created && <CreatedSourceSetup siteId={siteId} created={created} domain={site.data?.domain} />}
        </Step>
        <Step n={4} title="Watch your first submission arrive" done={arrived}>
          {siteId !== undefined && created && <FirstSubmission siteId={siteId} source={source.data} />}
        </Step>
      </ol>
    </>
  );
}
