import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { Dialog, Tabs } from "radix-ui";
import { useState } from "react";
import { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { ConfirmButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatAgo, formatDateTime } from "../../lib/format";
import { siteQuery } from "../sites/queries";
import { type CreatedSource, CreateSourceForm } from "./create-source";
import {
  archiveSource,
  deleteSource,
  formsQuery,
  rotateSecret,
  SOURCE_LABELS,
  type SourceKind,
  sourceKeys,
  sourcesQuery,
  updateSource,
} from "./queries";
import { SourceSetup } from "./source-setup";
import { count } from "./words";

const route = getRouteApi("/app/sites/$siteId/sources");

const tab =
  "border-b-2 border-transparent px-3 py-2 text-sm font-medium data-[state=active]:border-indigo-700 dark:data-[state=active]:border-indigo-300";

type Source = Awaited<ReturnType<ReturnType<typeof sourcesQuery>["queryFn"] & object>>["webhooks"][number];

type Form = Awaited<ReturnType<ReturnType<typeof formsQuery>["queryFn"] & object>>["forms"][number];

/** Closes the dialog it is in (Radix: focus goes back to what opened it). */
function CloseButton() {
  return (
    <div className="mt-4 flex justify-end">
      <Dialog.Close asChild>
        <Button variant="secondary">Close</Button>
      </Dialog.Close>
    </div>
  );
}

/** What a permanent deletion takes along, in words: the URL, and the form with its submissions unless it stays. */
function DeletionScope({ source, form }: { source: Source; form: Form | undefined }) {
  let formWords: string;
  if (!source.formId) formWords = "It has received nothing, so no form or submission goes with it.";
  else if (!form)
    formWords = "Its form goes with it, with all of its submissions, unless another source also sends to that form.";
  else if (form.origin === "builder") formWords = `The form “${form.name}” stays: you built it, and only the link to it goes.`;
  else if (form.webhookIds.length > 1) formWords = `The form “${form.name}” stays: another source also sends to it.`;
  else {
    formWords = `It also deletes the form “${form.name}” with its ${count((form.submissionCount ?? 0) + (form.spamCount ?? 0), "submission")} (spam included).`;
  }
  return (
    <>
      <p>
        This deletes the source <strong>{source.name}</strong> and its URL <code className="break-all">{source.webhookUrl}</code>{" "}
        for good: anything still sending there gets 404.
      </p>
      <p className="mt-2">{formWords}</p>
      <p className="mt-2">This cannot be undone.</p>
    </>
  );
}

/** One source's row: its state and counts, and what can be done to it from that state. */
function SourceRow({
  siteId,
  source,
  domain,
  form,
}: {
  siteId: string;
  source: Source;
  domain: string | null | undefined;
  form: Form | undefined;
}) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [shown, setShown] = useState<{ secret?: string; title: string }>();
  // Lists and counts move between tabs; a permanent deletion can take a form along.
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: sourceKeys.site(siteId) }),
      queryClient.invalidateQueries({ queryKey: sourceKeys.forms(siteId) }),
    ]);
  const act = useMutation({
    mutationFn: async (action: "enable" | "disable" | "archive" | "restore" | "delete" | "rotate") => {
      if (action === "enable" || action === "disable") await updateSource(siteId, source.id, { isEnabled: action === "enable" });
      if (action === "restore") await updateSource(siteId, source.id, { restore: true });
      if (action === "archive") await archiveSource(siteId, source.id);
      if (action === "delete") await deleteSource(siteId, source.id);
      if (action === "rotate") {
        const { secretKey } = await rotateSecret(siteId, source.id);
        setShown({ secret: secretKey, title: `New secret for ${source.name}` });
      }
      return action;
    },
    onSuccess: async (action) => {
      const words = {
        enable: "enabled",
        disable: "disabled",
        archive: "archived",
        restore: "restored (disabled until you enable it)",
        delete: "permanently deleted",
        rotate: "has a new secret",
      };
      toast(`${source.name} ${words[action]}`);
      await refresh();
    },
  });
  const archived = source.archivedAt !== null;
  const error = act.error instanceof ApiError ? act.error.message : undefined;
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-medium">{source.name}</h3>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {SOURCE_LABELS[source.source as SourceKind] ?? source.source} ·{" "}
            {archived ? "Archived" : source.isEnabled ? "Enabled" : "Disabled"} · {count(source.submissionCount, "submission")} ·{" "}
            {source.lastReceivedAt ? (
              <>
                last received{" "}
                <time dateTime={source.lastReceivedAt} title={formatDateTime(source.lastReceivedAt)}>
                  {formatAgo(source.lastReceivedAt)}
                </time>
              </>
            ) : (
              "nothing received yet"
            )}
          </p>
          {source.formId && (
            <p className="text-sm">
              <Link to="/forms/$formId" params={{ formId: source.formId }} search={{}}>
                Inbox of {source.name}
              </Link>
            </p>
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          {!archived && (
            <>
              <Button variant="secondary" onClick={() => setShown({ title: `Set up ${source.name}` })}>
                Setup
              </Button>
              <Button
                variant="secondary"
                disabled={act.isPending}
                onClick={() => act.mutate(source.isEnabled ? "disable" : "enable")}
              >
                {source.isEnabled ? "Disable" : "Enable"}
              </Button>
              <ConfirmButton
                label="Rotate secret"
                title={`Rotate the secret of ${source.name}?`}
                description="The current secret stops working at once: every form, script or platform sending with it is refused until it has the new one."
                confirmLabel="Rotate secret"
                onConfirm={() => act.mutate("rotate")}
              />
              <ConfirmButton
                label="Archive"
                title={`Archive ${source.name}?`}
                description="It stops accepting submissions. Its submissions stay, and you can restore it later with the same URL."
                confirmLabel="Archive"
                onConfirm={() => act.mutate("archive")}
              />
            </>
          )}
          {archived && (
            <>
              <Button variant="secondary" disabled={act.isPending} onClick={() => act.mutate("restore")}>
                Restore
              </Button>
              <ConfirmButton
                label="Delete permanently"
                variant="danger"
                title={`Permanently delete ${source.name}?`}
                description={<DeletionScope source={source} form={form} />}
                confirmLabel="Delete permanently"
                onConfirm={() => act.mutate("delete")}
              />
            </>
          )}
        </div>
      </div>
      {error && (
        <div className="mt-2">
          <FormError message={error} />
        </div>
      )}
      <Modal open={shown !== undefined} onOpenChange={(open) => !open && setShown(undefined)} title={shown?.title ?? ""}>
        <SourceSetup url={source.webhookUrl} secret={shown?.secret} domain={domain} kind={source.source} />
        <CloseButton />
      </Modal>
    </li>
  );
}

function SourceList({ siteId, archived, domain }: { siteId: string; archived: boolean; domain: string | null | undefined }) {
  const list = useQuery(sourcesQuery(siteId, archived));
  const forms = useQuery(formsQuery(siteId));
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  if (list.data.webhooks.length === 0) {
    return <p className="text-sm text-slate-600 dark:text-slate-300">{archived ? "No archived sources." : "No sources yet."}</p>;
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
    return <p className="text-sm text-slate-600 dark:text-slate-300">A form appears here with a source's first submission.</p>;
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
          <p className="text-sm text-slate-600 dark:text-slate-300">
            {form.submissionCount} in the inbox ·{" "}
            <Link to="/forms/$formId/spam" params={{ formId: form.id }} search={{}}>
              {form.spamCount} in spam
            </Link>
          </p>
        </li>
      ))}
    </ul>
  );
}

export function SourcesPage() {
  const { siteId } = route.useParams();
  const { archived = false } = route.useSearch();
  const navigate = route.useNavigate();
  const site = useQuery(siteQuery(siteId));
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
            <Tabs.Trigger value="active" className={tab}>
              Active{activeCount === undefined ? "" : ` (${activeCount})`}
            </Tabs.Trigger>
            <Tabs.Trigger value="archived" className={tab}>
              Archived{archivedCount === undefined ? "" : ` (${archivedCount})`}
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="active">
            <SourceList siteId={siteId} archived={false} domain={site.data?.domain} />
          </Tabs.Content>
          <Tabs.Content value="archived">
            <SourceList siteId={siteId} archived={true} domain={site.data?.domain} />
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
            <SourceSetup url={created.webhookUrl} secret={created.secretKey} domain={site.data?.domain} kind={created.source} />
            <CloseButton />
          </>
        ) : (
          <CreateSourceForm siteId={siteId} onCreated={setCreated} />
        )}
      </Modal>
    </>
  );
}
