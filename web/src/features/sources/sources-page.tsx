import { useQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { Tabs } from "radix-ui";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { CloseButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { underlineTab } from "../../components/ui/tabs";
import { Muted } from "../../components/ui/text";
import { CreateSourceForm } from "./create-source";
import { type CreatedSource, formsQuery, sourcesQuery } from "./queries";
import { SourceRow } from "./source-row";
import { CreatedSourceSetup } from "./source-setup";

const route = getRouteApi("/app/sites/$siteId/sources");

function SourceList({ siteId, archived, domain }: { siteId: string; archived: boolean; domain: string | null | undefined }) {
  const list = useQuery(sourcesQuery(siteId, archived));
  const forms = useQuery(formsQuery(siteId));
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  if (list.data.webhooks.length === 0) {
    return <Muted>{archived ? "No archived sources." : "No sources yet."}</Muted>;
  }
  return (
    <ul className="flex flex-col gap-3">
      {list.data.webhooks.map((source) => (
        <SourceRow
          key={source.id}
          siteId={siteId}
          source={source}
          domain={domain}
          form={forms.data?.forms.find((f) => f.id === source.formId)}
        />
      ))}
    </ul>
  );
}

/** The site's forms, each with its inbox and spam folder. */
function Forms({ siteId }: { siteId: string }) {
  const forms = useQuery(formsQuery(siteId));
  if (forms.isPending) return <Loading />;
  if (forms.isError) return <FormError message={forms.error.message} />;
  if (forms.data.forms.length === 0) {
    return <Muted>A form appears here with a source's first submission.</Muted>;
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {forms.data.forms.map((form) => (
        <li key={form.id} className={card}>
          <h3 className="font-medium">
            <Link to="/forms/$formId" params={{ formId: form.id }} search={{}}>
              {form.name}
            </Link>
          </h3>
          <Muted>
            {form.submissionCount} in the inbox ·{" "}
            <Link to="/forms/$formId/spam" params={{ formId: form.id }} search={{}}>
              {form.spamCount} in spam
            </Link>
          </Muted>
        </li>
      ))}
    </ul>
  );
}

/**
 * A site's sources, active or archived (a tab, in the URL), and the forms they fill. `domain` is
 * the site's, for the setups' thank-you page (given by web/src/app/sources-page.tsx).
 */
export function SourcesPage({ domain }: { domain: string | null | undefined }) {
  const { siteId } = route.useParams();
  const { archived = false } = route.useSearch();
  const navigate = route.useNavigate();
  const active = useQuery(sourcesQuery(siteId, false));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedSource>();
  const activeCount = active.data?.webhooks.length;
  const archivedCount = active.data?.archivedCount;
  return (
    <>
      <PageHeader
        title="Sources"
        description="Where this site's submissions come from, and the forms they fill."
        actions={<Button onClick={() => setCreating(true)}>New source</Button>}
      />
      <section aria-labelledby="forms-heading" className="mb-8">
        <h2 id="forms-heading" className="mb-3 text-xl font-semibold">
          Forms
        </h2>
        <Forms siteId={siteId} />
      </section>
      <section aria-labelledby="sources-heading">
        <h2 id="sources-heading" className="mb-3 text-xl font-semibold">
          All sources
        </h2>
        <Tabs.Root
          value={archived ? "archived" : "active"}
          onValueChange={(value) => void navigate({ search: value === "archived" ? { archived: true } : {} })}
        >
          <Tabs.List aria-label="Sources" className="mb-4 flex gap-2 border-b border-slate-200 dark:border-slate-700">
            <Tabs.Trigger value="active" className={underlineTab}>
              Active{activeCount === undefined ? "" : ` (${activeCount})`}
            </Tabs.Trigger>
            <Tabs.Trigger value="archived" className={underlineTab}>
              Archived{archivedCount === undefined ? "" : ` (${archivedCount})`}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="active">
            <SourceList siteId={siteId} archived={false} domain={domain} />
          </Tabs.Content>
          <Tabs.Content value="archived">
            <SourceList siteId={siteId} archived={true} domain={domain} />
          </Tabs.Content>
        </Tabs.Root>
      </section>
      <Modal
        open={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) setCreated(undefined);
        }}
        title={created ? `${created.name} is ready` : "New source"}
      >
        {created ? (
          <>
            <CreatedSourceSetup siteId={siteId} created={created} domain={domain} />
            <CloseButton />
          </>
        ) : (
          <CreateSourceForm siteId={siteId} onCreated={setCreated} />
        )}
      </Modal>
    </>
  );
}
