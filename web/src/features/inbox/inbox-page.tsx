import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Button, buttonClass } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Loading } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { Filters } from "./filters";
import { useFolderActions } from "./folder-actions";
import { useInboxTriage } from "./inbox-triage";
import { exportUrl, type Folder, type ListFilters, newestQuery, submissionsQuery } from "./queries";
import { FreshBanner, SelectionBar, useSelection } from "./selection";
import { SubmissionsTable } from "./submissions-table";
import type { Lead } from "./triage";
import { TriageFilterBar, type TriageFilters } from "./triage-filters";
import { KeysHelp } from "./triage-keys";

const inboxRoute = getRouteApi("/app/forms/$formId/");
const spamRoute = getRouteApi("/app/forms/$formId/spam");

/** The folder's heading (h2: the form's name is the page's h1), what it holds, and its exports. */
function SectionHeader({ title, description, actions }: { title: string; description: string; actions: ReactNode }) {
  return (
    <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
      <div>
        <h2 className="text-xl font-semibold">{title}</h2>
        <Muted className="mt-1">{description}</Muted>
      </div>
      <div className="flex flex-wrap gap-2">{actions}</div>
    </div>
  );
}

/**
 * A folder of a form (its inbox or its spam), filtered by the URL, a page at a time, with what
 * arrived since it was read and actions on a selection. `formName` titles the spam folder (given
 * by web/src/app/spam-page.tsx).
 */
export function FolderView({ folder, formName }: { folder: Folder; formName?: string | undefined }) {
  const route = folder === "spam" ? spamRoute : inboxRoute;
  const { formId } = route.useParams();
  const search = route.useSearch();
  const triageSearch: TriageFilters =
    folder === "inbox" && "status" in search
      ? { status: search.status, owner: search.owner, tag: search.tag, unread: search.unread }
      : {};
  const filters: ListFilters = { q: search.q, from: search.from, to: search.to, ...triageSearch };
  const navigate = route.useNavigate();
  const list = useInfiniteQuery(submissionsQuery(formId, folder, filters));
  const newest = useQuery({ ...newestQuery(formId, folder, filters), enabled: list.isSuccess });
  const { selected, toggle, clear } = useSelection();
  const { moderate, remove, error } = useFolderActions(formId, clear);

  const rows: Lead[] = list.data?.pages.flatMap((page) => page.submissions) ?? [];
  const triage = useInboxTriage({ formId, rows, selected, toggle, enabled: folder === "inbox" });
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const shown = new Set(rows.map((r) => r.id));
  const newestShown = rows[0]?.createdAt ?? "";
  const fresh = (newest.data?.submissions ?? []).filter((s) => !shown.has(s.id) && s.createdAt >= newestShown).length;
  const ids = [...selected];
  const isSpam = folder !== "spam";
  // The form's name is the layout's h1 (features/forms/form-layout.tsx); the folder is this page's h2.
  const title = folder === "spam" ? (formName ? `Spam of ${formName}` : "Spam") : "Inbox";

  return (
    <>
      <SectionHeader
        title={title}
        description={
          folder === "spam"
            ? "Submissions scored as spam. Nothing was sent for them: no email, no webhook. Each shows why it was flagged."
            : "Submissions newest first. Filter them, select some to change them together, or work them from the keyboard."
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
      <Filters
        key={JSON.stringify(filters)}
        filters={filters}
        onApply={(next) => void navigate({ search: { ...triageSearch, ...next } })}
      />
      {folder === "inbox" && (
        <>
          <TriageFilterBar
            filters={triageSearch}
            counts={triage.counts}
            tags={triage.tags}
            members={triage.members}
            onChange={(next) => void navigate({ search: { q: filters.q, from: filters.from, to: filters.to, ...next } })}
          />
          <KeysHelp detailsRef={triage.helpRef} />
        </>
      )}
      <FreshBanner count={fresh} onShow={() => void list.refetch()} />
      <FormError message={error} />
      {folder === "inbox" && (
        <p role="status" aria-live="polite" className="mb-2 min-h-5 text-sm font-medium">
          {triage.announcement}
        </p>
      )}
      <SelectionBar
        folder={folder}
        ids={ids}
        onMove={() => moderate({ ids, isSpam })}
        onDelete={() => remove(ids)}
        onClear={clear}
      >
        {folder === "inbox" && triage.bulkMenus}
      </SelectionBar>
      {list.isPending && <Loading />}
      {list.isError && <FormError message={list.error.message} />}
      {list.isSuccess && rows.length === 0 && !list.hasNextPage && (
        <Muted>{filtered ? "Nothing matches these filters." : folder === "spam" ? "No spam. " : "No submissions yet."}</Muted>
      )}
      {rows.length > 0 && (
        <SubmissionsTable
          folder={folder}
          title={title}
          rows={rows}
          selected={selected}
          onToggle={toggle}
          onMove={(id) => moderate({ ids: [id], isSpam })}
          triage={folder === "inbox" ? triage.rowTriage : undefined}
        />
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
