import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { ApiError } from "../../api/client";
import { Button, buttonClass } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { Loading } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatAgo, formatDateTime } from "../../lib/format";
import {
  bulkDelete,
  exportUrl,
  type Folder,
  formQuery,
  inboxKeys,
  type ListFilters,
  newestQuery,
  type Submission,
  setSpam,
  submissionsQuery,
} from "./queries";
import { gradeLabel, mainValues, SPAM_THRESHOLD, signalLabel } from "./values";

const inboxRoute = getRouteApi("/app/forms/$formId/");
const spamRoute = getRouteApi("/app/forms/$formId/spam");

/** The filters of the view, edited here and applied to the URL (so the view is a link). */
function Filters({ filters, onApply }: { filters: ListFilters; onApply: (filters: ListFilters) => void }) {
  const [draft, setDraft] = useState(filters);
  const submit = submitWith(() =>
    onApply({ q: draft.q?.trim() || undefined, from: draft.from || undefined, to: draft.to || undefined }),
  );
  return (
    <search>
      <form onSubmit={submit} className="mb-4 flex flex-wrap items-end gap-3">
        <TextField
          label="Search"
          type="search"
          value={draft.q ?? ""}
          onChange={(e) => setDraft({ ...draft, q: e.target.value })}
        />
        <TextField
          label="From"
          type="date"
          value={draft.from ?? ""}
          onChange={(e) => setDraft({ ...draft, from: e.target.value })}
        />
        <TextField label="To" type="date" value={draft.to ?? ""} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        <Button type="submit" variant="secondary">
          Apply filters
        </Button>
        {(filters.q || filters.from || filters.to) && (
          <Button
            variant="ghost"
            onClick={() => {
              setDraft({});
              onApply({});
            }}
          >
            Clear filters
          </Button>
        )}
      </form>
    </search>
  );
}

/** The folder's heading (h2: the form's name is the page's h1), what it holds, and its exports. */
function SectionHeader({ title, description, actions }: { title: string; description: string; actions: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h2 className="text-xl font-semibold">{title}</h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{description}</p>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  );
}

/** The lead grade in words with its score, so the grade never rests on colour alone. */
function LeadGrade({ lead }: { lead: Submission["lead"] }) {
  if (!lead) return <span className="text-slate-500 dark:text-slate-400">Not graded yet</span>;
  return (
    <span>
      <span className="font-medium">{gradeLabel(lead.grade)}</span>{" "}
      <span className="text-slate-600 dark:text-slate-300">
        {lead.score}/100{lead.test ? " · test" : ""}
      </span>
    </span>
  );
}

function FolderView({ folder }: { folder: Folder }) {
  const route = folder === "spam" ? spamRoute : inboxRoute;
  const { formId } = route.useParams();
  const search = route.useSearch();
  const filters: ListFilters = { q: search.q, from: search.from, to: search.to };
  const navigate = route.useNavigate();
  const queryClient = useQueryClient();
  const toast = useToast();
  const form = useQuery(formQuery(formId));
  const list = useInfiniteQuery(submissionsQuery(formId, folder, filters));
  const newest = useQuery({ ...newestQuery(formId, folder, filters), enabled: list.isSuccess });
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const rows = list.data?.pages.flatMap((page) => page.submissions) ?? [];
  const shown = new Set(rows.map((r) => r.id));
  const newestShown = rows[0]?.createdAt ?? "";
  const fresh = (newest.data?.submissions ?? []).filter((s) => !shown.has(s.id) && s.createdAt >= newestShown).length;

  const refresh = async () => {
    setSelected(new Set());
    await queryClient.invalidateQueries({ queryKey: inboxKeys.form(formId) });
  };
  const moderate = useMutation({
    mutationFn: async ({ ids, isSpam }: { ids: string[]; isSpam: boolean }) => {
      for (const id of ids) await setSpam(id, isSpam);
      return { count: ids.length, isSpam };
    },
    onSuccess: async ({ count, isSpam }) => {
      toast(`${count} ${count === 1 ? "submission" : "submissions"} ${isSpam ? "moved to spam" : "moved to the inbox"}`);
      await refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (ids: string[]) => bulkDelete(ids),
    onSuccess: async (result) => {
      toast(`${result.data.deleted} deleted`);
      await refresh();
    },
  });
  const error = [moderate.error, remove.error].find((e) => e instanceof ApiError)?.message;
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const ids = [...selected];
  // The form's name is the layout's h1 (features/forms/form-layout.tsx); the folder is this page's h2.
  const title = folder === "spam" ? (form.data ? `Spam of ${form.data.name}` : "Spam") : "Inbox";

  return (
    <>
      <SectionHeader
        title={title}
        description={
          folder === "spam"
            ? "Submissions scored as spam. Nothing was sent for them: no email, no webhook. Each shows why it was flagged."
            : "Submissions newest first."
        }
        actions={
          <>
            <a className={buttonClass("secondary")} href={exportUrl(formId, folder, filters, "csv")} download>
              Export CSV
            </a>
            <a className={buttonClass("secondary")} href={exportUrl(formId, folder, filters, "json")} download>
              Export JSON
            </a>
          </>
        }
      />
      <Filters key={JSON.stringify(filters)} filters={filters} onApply={(next) => void navigate({ search: next })} />
      {fresh > 0 && (
        <div
          role="status"
          className="mb-4 flex items-center justify-between rounded-md bg-indigo-50 px-4 py-2 dark:bg-indigo-950"
        >
          <span>
            {fresh >= 50 ? "50+" : fresh} new {fresh === 1 ? "submission" : "submissions"}
          </span>
          <Button variant="secondary" onClick={() => void list.refetch()}>
            Show them
          </Button>
        </div>
      )}
      <FormError message={error} />
      {selected.size > 0 && (
        <section className="mb-3 flex flex-wrap items-center gap-2" aria-label="Selection actions">
          <span className="text-sm">{selected.size} selected</span>
          <Button variant="secondary" onClick={() => moderate.mutate({ ids, isSpam: folder !== "spam" })}>
            {folder === "spam" ? "Not spam" : "Mark as spam"}
          </Button>
          <ConfirmButton
            label="Delete selected"
            variant="danger"
            title={`Delete ${selected.size} ${selected.size === 1 ? "submission" : "submissions"}?`}
            description="They are deleted for good, with their data. This cannot be undone."
            confirmLabel="Delete"
            onConfirm={() => remove.mutate(ids)}
          />
        </section>
      )}
      {list.isPending && <Loading />}
      {list.isError && <FormError message={list.error.message} />}
      {list.isSuccess && rows.length === 0 && !list.hasNextPage && (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {filters.q || filters.from || filters.to
            ? "Nothing matches these filters."
            : folder === "spam"
              ? "No spam. "
              : "No submissions yet."}
        </p>
      )}
      {rows.length > 0 && (
        <div className="overflow-x-auto">
          <table className="w-full border-collapse text-left text-sm">
            <caption className="sr-only">{title}</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-600">
                <th scope="col" className="w-8 p-2">
                  <span className="sr-only">Select</span>
                </th>
                <th scope="col" className="p-2">
                  Submission
                </th>
                <th scope="col" className="p-2">
                  Reference
                </th>
                <th scope="col" className="p-2">
                  Received
                </th>
                <th scope="col" className="p-2">
                  {folder === "spam" ? "Why it is spam" : "Lead"}
                </th>
                <th scope="col" className="p-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => {
                const values = mainValues(s.data);
                const label = values[0]?.value || s.referenceId;
                return (
                  <tr key={s.id} className="border-b border-slate-200 align-top dark:border-slate-700">
                    <td className="p-2">
                      <input
                        type="checkbox"
                        aria-label={`Select ${label}`}
                        checked={selected.has(s.id)}
                        onChange={() => toggle(s.id)}
                        className="h-4 w-4"
                      />
                    </td>
                    <td className="p-2">
                      <Link to="/submissions/$submissionId" params={{ submissionId: s.id }} className="font-medium">
                        {label}
                      </Link>
                      <div className="text-slate-600 dark:text-slate-300">
                        {values
                          .slice(1)
                          .map((v) => v.value)
                          .filter(Boolean)
                          .join(" · ")}
                      </div>
                    </td>
                    <td className="p-2 font-mono text-xs">{s.referenceId}</td>
                    <td className="p-2">
                      <time dateTime={s.createdAt} title={formatDateTime(s.createdAt)}>
                        {formatAgo(s.createdAt)}
                      </time>
                    </td>
                    <td className="p-2">
                      {folder === "spam" ? (
                        <div>
                          <span className="font-medium">Score {s.spam.score} of 100</span>
                          {s.spam.score <= SPAM_THRESHOLD && (
                            <p className="text-slate-600 dark:text-slate-300">Marked as spam by a person</p>
                          )}
                          <ul className="list-disc pl-4 text-slate-600 dark:text-slate-300">
                            {s.spam.signals.map((signal) => (
                              <li key={signal.name}>
                                {signalLabel(signal.name)} (+{signal.score})
                              </li>
                            ))}
                          </ul>
                        </div>
                      ) : (
                        <LeadGrade lead={s.lead} />
                      )}
                    </td>
                    <td className="p-2">
                      <Button variant="ghost" onClick={() => moderate.mutate({ ids: [s.id], isSpam: folder !== "spam" })}>
                        {folder === "spam" ? "Not spam" : "Mark as spam"}
                        <span className="sr-only">: {label}</span>
                      </Button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {list.hasNextPage && (
        <div className="mt-4">
          <Button variant="secondary" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
            {list.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
    </>
  );
}

export const InboxPage = () => <FolderView folder="inbox" />;
export const SpamPage = () => <FolderView folder="spam" />;
