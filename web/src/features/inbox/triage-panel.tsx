import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { FormError, SelectField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { TagChip } from "../../components/ui/tag-chip";
import { Muted } from "../../components/ui/text";
import { can, type Me, useMe } from "../../lib/access";
import { type Member, membersQuery, STATUS_LABELS, STATUSES, type Status, type Tag, tagsQuery } from "../../lib/triage";
import { ConflictAlert, isConflict } from "./lead-conflict";
import { Notes } from "./lead-notes";
import { Timeline } from "./lead-timeline";
import { type Lead, setRead, type TriageChange, updateLead } from "./triage";

/** The people named on the page: a member by id ("you" for the signed-in person). */
const nameOf = (me: Me, members: readonly Member[]) => (userId: string) =>
  userId === me.user.id ? "you" : (members.find((m) => m.id === userId)?.name ?? "a former member");

/**
 * A lead's triage on its page (docs/triage.md): status, owner and tags, each saved as it changes with
 * the version read (a 409 says someone else changed it first), its notes and its timeline. Opening
 * the page marks the lead read for the signed-in person.
 */
export function TriagePanel({ lead }: { lead: Lead }) {
  const me = useMe();
  const queryClient = useQueryClient();
  const members = useInfiniteQuery(membersQuery);
  const tags = useQuery(tagsQuery);
  const memberList = members.data?.pages.flatMap((p) => p.members) ?? [];
  const [said, setSaid] = useState("");

  // Opening the page marks it read (once per lead); the inbox's lists are read again after.
  useEffect(() => {
    setRead(lead.id, true)
      .then(() => queryClient.invalidateQueries({ queryKey: queryKeys.submissions.lists(lead.formId) }))
      .catch(() => undefined);
  }, [lead.id, lead.formId, queryClient]);

  // Reload reads the lead and its timeline again: the timeline then says who changed it meanwhile.
  const reload = async () => {
    save.reset();
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.submissions.one(lead.id) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.submissions.timeline(lead.id) }),
    ]);
  };
  const save = useMutation({
    mutationFn: ({ change }: { change: TriageChange; what: string }) =>
      updateLead(lead.id, { ...change, updatedAt: lead.updatedAt }),
    onSuccess: async (fresh, { what }) => {
      queryClient.setQueryData(queryKeys.submissions.one(lead.id), fresh);
      setSaid(what);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(lead.formId) }),
        queryClient.invalidateQueries({ queryKey: queryKeys.submissions.timeline(lead.id) }),
      ]);
    },
  });
  const conflict = isConflict(save.error);
  const spam = lead.spam.isSpam;
  const editable = can(me, "forms.edit") && !spam && !conflict && !save.isPending;
  // A deleted tag's id stays on the lead until its tags change: only tags that exist are shown and sent.
  const known = new Set((tags.data ?? []).map((t) => t.id));
  const leadTags = new Set(lead.tags.filter((id) => known.has(id)));
  const name = nameOf(me, memberList);
  // Owner rules (docs/api.md): without submissions.delete a member takes an unowned lead or gives up
  // their own; anyone else's lead, or giving one to someone else, is for owners and admins.
  const mayReassign = can(me, "submissions.delete");
  const othersLead = !mayReassign && lead.ownerId !== null && lead.ownerId !== me.user.id;
  const owners = mayReassign ? memberList : memberList.filter((m) => m.id === me.user.id);

  return (
    <section className={`${card} lg:col-span-2`} aria-labelledby="triage-heading">
      <h2 id="triage-heading" className="mb-3 text-lg font-medium">
        Working this lead
      </h2>
      {conflict && <ConflictAlert what="lead" onReload={() => void reload()} />}
      {!conflict && <FormError message={apiError(save.error)?.message} className="mb-3" />}
      {spam && <Muted className="mb-3">A submission in spam cannot be worked: mark it as not spam first.</Muted>}
      {!can(me, "forms.edit") && <Muted className="mb-3">Your role ({me.role}) can read this lead and take notes.</Muted>}
      <div className="flex flex-wrap items-end gap-4">
        <SelectField
          label="Status"
          value={lead.status}
          disabled={!editable}
          onChange={(e) => {
            const status = e.target.value as Status;
            save.mutate({ change: { status }, what: `Status set to ${STATUS_LABELS[status]}` });
          }}
          options={STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] }))}
        />
        <SelectField
          label="Owner"
          value={lead.ownerId ?? ""}
          disabled={!editable || othersLead}
          onChange={(e) => {
            const ownerId = e.target.value || null;
            save.mutate({ change: { ownerId }, what: ownerId ? `Assigned to ${name(ownerId)}` : "Unassigned" });
          }}
          options={[
            { value: "", label: "Nobody" },
            ...(lead.ownerId && !owners.some((m) => m.id === lead.ownerId)
              ? [{ value: lead.ownerId, label: name(lead.ownerId) }]
              : []),
            ...owners.map((m) => ({ value: m.id, label: m.id === me.user.id ? `${m.name} (you)` : m.name })),
          ]}
        />
      </div>
      {othersLead && (
        <Muted className="mt-2">
          This lead is {name(lead.ownerId ?? "")}'s: only owners and admins can give it to someone else.
        </Muted>
      )}
      <fieldset className="mt-4" disabled={!editable}>
        <legend className="text-sm font-medium">Tags</legend>
        {tags.data && tags.data.length === 0 && (
          <Muted className="mt-1">No tags yet: owners, admins and members who edit forms make them in Settings → Tags.</Muted>
        )}
        <ul className="mt-2 flex flex-wrap gap-2">
          {(tags.data ?? []).map((tag: Tag) => {
            const on = leadTags.has(tag.id);
            return (
              <li key={tag.id}>
                <button
                  type="button"
                  aria-pressed={on}
                  className="inline-flex min-h-9 items-center gap-1 rounded-full border border-slate-300 px-2 py-1 text-sm aria-pressed:border-indigo-700 aria-pressed:ring-2 aria-pressed:ring-indigo-700 disabled:opacity-60 dark:border-slate-600 dark:aria-pressed:border-indigo-300 dark:aria-pressed:ring-indigo-300"
                  onClick={() => {
                    const next = on ? [...leadTags].filter((id) => id !== tag.id) : [...leadTags, tag.id];
                    save.mutate({ change: { tags: next }, what: on ? `Tag ${tag.name} removed` : `Tag ${tag.name} added` });
                  }}
                >
                  <span aria-hidden="true">{on ? "✓" : "+"}</span>
                  <TagChip name={tag.name} colour={tag.colour} />
                </button>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <p role="status" aria-live="polite" className="mt-3 min-h-5 text-sm font-medium">
        {said}
      </p>
      <div className="mt-4 grid gap-6 lg:grid-cols-2">
        <Notes submissionId={lead.id} name={name} />
        <Timeline submissionId={lead.id} name={name} tags={tags.data ?? []} />
      </div>
    </section>
  );
}
