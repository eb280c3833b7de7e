import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useRef, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { MenuButton } from "../../components/ui/menu";
import { can, useMe } from "../../lib/access";
import { membersQuery, STATUS_LABELS, STATUSES, type Status, tagsQuery } from "../../lib/triage";
import type { RowTriage } from "./submissions-table";
import { type BulkChange, bulkSummary, bulkUpdate, type Lead, setRead, statusCountsQuery } from "./triage";
import { type TriageHandlers, useTriageKeys } from "./triage-keys";

/**
 * The inbox's triage: the tags and members it names, the active row, the bulk changes (by the
 * selection bar's menus and by the keys), and what was done, said in a polite live region.
 */
export function useInboxTriage({
  formId,
  rows,
  selected,
  toggle,
  enabled,
}: {
  formId: string;
  rows: Lead[];
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
  enabled: boolean;
}) {
  const me = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const tags = useQuery({ ...tagsQuery, enabled });
  const members = useInfiniteQuery({ ...membersQuery, enabled });
  const counts = useQuery({ ...statusCountsQuery(formId), enabled });
  const [activeId, setActiveId] = useState<string | undefined>();
  const [announcement, setAnnouncement] = useState("");
  const helpRef = useRef<HTMLDetailsElement | null>(null);

  const memberList = members.data?.pages.flatMap((p) => p.members) ?? [];
  const tagList = tags.data ?? [];
  const tagMap = new Map(tagList.map((t) => [t.id, t]));
  const ownerName = (userId: string) =>
    userId === me.user.id ? "me" : (memberList.find((m) => m.id === userId)?.name ?? "a former member");

  const activeIndex = Math.max(
    0,
    rows.findIndex((r) => r.id === activeId),
  );
  const active = rows[activeIndex];
  /** The selected leads, or the active one when none is selected. */
  const targets = () => (selected.size > 0 ? [...selected] : active ? [active.id] : []);

  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(formId) });
  const change = useMutation({
    mutationFn: async ({ ids, body }: { ids: string[]; body: BulkChange; what: string }) => bulkUpdate(ids, body),
    onSuccess: async (result, { what }) => {
      setAnnouncement(bulkSummary(what, result));
      await refresh();
    },
    onError: (error) => setAnnouncement(apiError(error)?.message ?? "That did not work. Try again."),
  });
  const apply = (body: BulkChange, what: string, ids = targets()) => {
    if (ids.length > 0) change.mutate({ ids, body, what });
  };
  const read = useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) => setRead(id, read),
    onSuccess: async (_, { read }) => {
      setAnnouncement(read ? "Marked read." : "Marked unread.");
      await refresh();
    },
    onError: (error) => setAnnouncement(apiError(error)?.message ?? "That did not work. Try again."),
  });

  const focusRow = (id: string) =>
    document.querySelector<HTMLAnchorElement>(`tr[data-submission-id="${CSS.escape(id)}"] a[href]`)?.focus();

  const handlers: TriageHandlers = {
    move: (by) => {
      const next = rows[Math.min(rows.length - 1, Math.max(0, activeIndex + by))];
      if (!next) return;
      setActiveId(next.id);
      focusRow(next.id);
    },
    open: () => {
      if (active) void navigate({ to: "/submissions/$submissionId", params: { submissionId: active.id } });
    },
    toggle: () => active && toggle(active.id),
    setStatus: (status: Status) => apply({ status }, `Status set to ${STATUS_LABELS[status]}`),
    assignToMe: () => apply({ ownerId: me.user.id }, "Assigned to you"),
    toggleUnread: () => active && read.mutate({ id: active.id, read: active.unread === true }),
    help: () => {
      const details = helpRef.current;
      if (!details) return;
      details.open = true;
      details.querySelector("summary")?.focus();
    },
  };
  useTriageKeys(handlers, enabled && rows.length > 0);

  const rowTriage: RowTriage = { activeId: active?.id, tags: tagMap, ownerName, onActivate: setActiveId };

  /** The selection bar's triage menus: status, assign, add or remove a tag. */
  const bulkMenus = (
    <>
      <MenuButton
        label="Set status"
        items={STATUSES.map((status) => ({
          label: STATUS_LABELS[status],
          onSelect: () => apply({ status }, `Status set to ${STATUS_LABELS[status]}`),
        }))}
      />
      <MenuButton
        label="Assign"
        items={[
          { label: "To me", onSelect: () => apply({ ownerId: me.user.id }, "Assigned to you") },
          { label: "To nobody", onSelect: () => apply({ ownerId: null }, "Unassigned") },
          // Giving leads to someone else needs submissions.delete (owners and admins; docs/api.md).
          ...(can(me, "submissions.delete") ? memberList : [])
            .filter((m) => m.id !== me.user.id)
            .map((m) => ({ label: `To ${m.name}`, onSelect: () => apply({ ownerId: m.id }, `Assigned to ${m.name}`) })),
        ]}
      />
      <MenuButton
        label="Add tag"
        items={tagList.map((t) => ({ label: t.name, onSelect: () => apply({ addTags: [t.id] }, `Tag ${t.name} added`) }))}
      />
      <MenuButton
        label="Remove tag"
        items={tagList.map((t) => ({ label: t.name, onSelect: () => apply({ removeTags: [t.id] }, `Tag ${t.name} removed`) }))}
      />
    </>
  );

  return {
    rowTriage,
    bulkMenus,
    announcement,
    setAnnouncement,
    helpRef,
    tags: tagList,
    members: memberList,
    counts: counts.data,
  };
}
