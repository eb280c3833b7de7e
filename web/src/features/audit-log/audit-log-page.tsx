import { useInfiniteQuery } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { type FormEvent, useState } from "react";
import { Button } from "../../components/ui/button";
import { FormError, SelectField, TextField } from "../../components/ui/field";
import { LoadMore } from "../../components/ui/load-more";
import { Loading, PageHeader } from "../../components/ui/page";
import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { can, useMe } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { type AuditAction, type AuditEntry, auditLogQuery } from "./queries";
import { ACTION_LABELS, actionLabel, actorId, actorLabel, detailPairs } from "./words";

const route = getRouteApi("/app/settings/audit-log");

const ACTIONS = [
  { value: "", label: "All actions" },
  ...(Object.entries(ACTION_LABELS) as [AuditAction, string][]).map(([value, label]) => ({ value, label })),
];

const COLUMNS = [{ label: "When" }, { label: "Who" }, { label: "Action" }, { label: "Object" }, { label: "Details" }];

function EntryRow({ entry }: { entry: AuditEntry }) {
  const details = detailPairs(entry.details);
  return (
    <Row>
      <RowHeader className="whitespace-nowrap">
        <time dateTime={entry.at}>{formatDateTime(entry.at)}</time>
      </RowHeader>
      <Cell>
        {actorLabel(entry.actor)}
        <br />
        <Muted>
          from <span className="font-mono">{entry.actor.ip}</span> ·{" "}
          <Link
            from="/settings/audit-log"
            search={(prev) => ({ ...prev, actor: actorId(entry.actor) })}
            aria-label={`Only entries by ${actorLabel(entry.actor)}`}
          >
            only theirs
          </Link>
        </Muted>
      </Cell>
      <Cell>{actionLabel(entry.action)}</Cell>
      <Cell>
        {entry.target.name ? `${entry.target.name} ` : ""}
        <Muted>
          {entry.target.type} <span className="font-mono break-all">{entry.target.id}</span>
        </Muted>
      </Cell>
      <Cell>
        {details.length > 0 ? (
          <dl className="grid grid-cols-[auto_1fr] gap-x-2">
            {details.map(([name, value]) => (
              <div key={name} className="contents">
                <dt className="text-slate-600 dark:text-slate-400">{name}</dt>
                <dd className="break-all">{value}</dd>
              </div>
            ))}
          </dl>
        ) : (
          "—"
        )}
      </Cell>
    </Row>
  );
}

/** The actor and date filters, applied to the URL together. */
function FilterForm() {
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const [actor, setActor] = useState(search.actor ?? "");
  const [from, setFrom] = useState(search.from ?? "");
  const [to, setTo] = useState(search.to ?? "");
  const apply = (event: FormEvent) => {
    event.preventDefault();
    void navigate({
      search: (prev) => ({ ...prev, actor: actor.trim() || undefined, from: from || undefined, to: to || undefined }),
      replace: true,
    });
  };
  return (
    <form className="flex flex-wrap items-end gap-4" onSubmit={apply} aria-label="Filter the audit log">
      <TextField label="Actor (user or key id)" value={actor} onChange={(e) => setActor(e.target.value)} className="w-64" />
      <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
      <TextField label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
      <Button type="submit" variant="secondary">
        Apply
      </Button>
    </form>
  );
}

/**
 * Settings → Audit log: who did what that changes or exposes data (docs/privacy.md, "Audit log"),
 * newest first, filtered by action, actor and dates kept in the URL, so a view is a link.
 */
export function AuditLogPage() {
  const me = useMe();
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const allowed = can(me, "audit_log.read");
  const filters = { ...search, action: search.action as AuditAction | undefined };
  const log = useInfiniteQuery({ ...auditLogQuery(filters), enabled: allowed });
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <>
      <PageHeader
        level={2}
        title="Audit log"
        description="What the organization's people and API keys did that changes or exposes data, kept for a year."
      />
      {!allowed ? (
        <p>Only the owner and admins can read the audit log.</p>
      ) : (
        <>
          <div className="mb-4 flex flex-wrap items-end gap-4">
            <div className="w-72">
              <SelectField
                label="Action"
                options={ACTIONS}
                value={search.action ?? ""}
                onChange={(e) =>
                  void navigate({ search: (prev) => ({ ...prev, action: e.target.value || undefined }), replace: true })
                }
              />
            </div>
            {/* Keyed by the URL's values: a link that changes them (an actor's "only theirs") refills the form. */}
            <FilterForm key={`${search.actor ?? ""}|${search.from ?? ""}|${search.to ?? ""}`} />
          </div>
          {log.isPending ? (
            <Loading />
          ) : log.isError ? (
            <FormError message={log.error.message} />
          ) : (
            <>
              {entries.length === 0 && !log.hasNextPage ? (
                <Muted>
                  No entries{search.action || search.actor || search.from || search.to ? " match these filters" : " yet"}.
                </Muted>
              ) : (
                <Table caption="Audit log entries, newest first" columns={COLUMNS}>
                  {entries.map((entry) => (
                    <EntryRow key={entry.id} entry={entry} />
                  ))}
                </Table>
              )}
              <LoadMore list={log} />
            </>
          )}
        </>
      )}
    </>
  );
}
