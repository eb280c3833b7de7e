import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, SelectField } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatDateTime } from "../../lib/format";
import { apiKeysQuery } from "../api-keys/queries";
import { apiKeysRefusal, inviteRefusal, type Me, manageTeamRefusal, useMe } from "../auth/access";
import { meQuery } from "../auth/session";
import { InviteForm } from "./invite-form";
import { changeRole, type InvitedRole, type Member, membersQuery, removeMember, teamKeys } from "./queries";

const muted = "text-sm text-slate-600 dark:text-slate-300";
const ROLE_NAMES = { owner: "Owner", admin: "Admin", member: "Member" } as const;

/** What removing `member` does to the API keys they made: named when this person can see the keys. */
function RemovalScope({ member, keyNames }: { member: Member; keyNames: string[] | undefined }) {
  return (
    <>
      <p>
        <strong>{member.name}</strong> ({member.email}) leaves the organization: their sessions stop working at once and their
        email address is free to sign up again.
      </p>
      <p className="mt-2">
        The API keys they created stop working at the same moment (401 <code>API_KEY_ORPHANED</code>). They stay listed as
        orphaned under Settings → API keys and cannot be handed to anyone else: revoke and delete them, and create new keys where
        they were used.
      </p>
      {keyNames !== undefined && (
        <p className="mt-2">
          {keyNames.length === 0
            ? `${member.name} has no active API keys.`
            : `Active keys of ${member.name} that stop working: ${keyNames.join(", ")}.`}
        </p>
      )}
    </>
  );
}

function MemberRow({ member, me, keyNames }: { member: Member; me: Me; keyNames: string[] | undefined }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [role, setRole] = useState<InvitedRole>(member.role === "admin" ? "admin" : "member");
  const act = useMutation({
    mutationFn: async (action: "role" | "remove") => {
      if (action === "role") await changeRole(member.id, role);
      else await removeMember(member.id);
      return action;
    },
    onSuccess: async (action) => {
      toast(action === "role" ? `${member.name} is now ${role === "admin" ? "an admin" : "a member"}` : `${member.name} removed`);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: teamKeys.members }),
        // Their keys follow the role change or become orphaned.
        queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey }),
        // An admin who made themselves a member: what the pages offer them changes now.
        member.id === me.user.id ? queryClient.invalidateQueries({ queryKey: meQuery.queryKey }) : undefined,
      ]);
    },
  });
  const isMe = member.id === me.user.id;
  const manageable = manageTeamRefusal(me) === undefined && member.role !== "owner";
  return (
    <tr className="border-t border-slate-200 align-top dark:border-slate-700">
      <th scope="row" className="py-3 pr-4 text-left font-medium">
        {member.name}
        {isMe && <span className="font-normal"> (you)</span>}
        <div className="font-normal text-slate-600 dark:text-slate-300">{member.email}</div>
      </th>
      <td className="py-3 pr-4">
        {manageable ? (
          <div className="flex items-end gap-2">
            <SelectField
              label={`Role of ${member.name}`}
              options={[
                { value: "member", label: "Member" },
                { value: "admin", label: "Admin" },
              ]}
              value={role}
              onChange={(e) => setRole(e.target.value as InvitedRole)}
            />
            <Button
              variant="secondary"
              disabled={act.isPending || role === member.role}
              onClick={() => act.mutate("role")}
              aria-label={`Change the role of ${member.name}`}
            >
              Change role
            </Button>
          </div>
        ) : (
          <>
            {ROLE_NAMES[member.role]}
            {member.role === "owner" && <div className={muted}>The owner's role cannot change.</div>}
          </>
        )}
      </td>
      <td className="py-3 pr-4">
        <time dateTime={member.createdAt}>{formatDateTime(member.createdAt)}</time>
      </td>
      <td className="py-3">
        {manageable &&
          (isMe ? (
            <p className={muted}>You cannot remove yourself; the owner or another admin can.</p>
          ) : (
            <ConfirmButton
              label={`Remove ${member.name}`}
              variant="danger"
              title={`Remove ${member.name}?`}
              description={<RemovalScope member={member} keyNames={keyNames} />}
              confirmLabel="Remove member"
              onConfirm={() => act.mutate("remove")}
            />
          ))}
        {act.error && (
          <div className="mt-2">
            <FormError message={apiError(act.error)?.message ?? act.error.message} />
          </div>
        )}
      </td>
    </tr>
  );
}

function Members({ me }: { me: Me }) {
  const list = useInfiniteQuery(membersQuery);
  // Who made which key, for the removal dialog: only where this person may see the keys.
  const keys = useQuery({ ...apiKeysQuery, enabled: apiKeysRefusal(me) === undefined });
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  const members = list.data.pages.flatMap((p) => p.members);
  const activeKeysOf = (email: string) =>
    keys.data?.keys.filter((k) => k.createdBy.email === email && !k.isRevoked && !k.isOrphaned).map((k) => k.name);
  return (
    <>
      <div className="overflow-x-auto">
        <table className="w-full text-sm">
          <caption className="sr-only">Members and their roles</caption>
          <thead>
            <tr className="text-left">
              <th scope="col" className="py-2 pr-4 font-semibold">
                Member
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Role
              </th>
              <th scope="col" className="py-2 pr-4 font-semibold">
                Joined
              </th>
              <th scope="col" className="py-2 font-semibold">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <MemberRow key={member.id} member={member} me={me} keyNames={keys.data ? activeKeysOf(member.email) : undefined} />
            ))}
          </tbody>
        </table>
      </div>
      {list.hasNextPage && (
        <Button variant="secondary" className="mt-3" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : "Load more members"}
        </Button>
      )}
    </>
  );
}

/** Settings → Team: the members with their roles; inviting, role changes and removal for those allowed. */
export function TeamPage() {
  const me = useMe();
  const cannotInvite = inviteRefusal(me);
  const cannotManage = manageTeamRefusal(me);
  return (
    <>
      <PageHeader
        title="Team"
        description={`Who can sign in to ${me.organization.name}. Owner and admins can do everything; members work with forms and submissions and can look at sites and the team.`}
      />
      <section aria-labelledby="invite-heading" className={`${card} mb-6`}>
        <h2 id="invite-heading" className="mb-3 text-lg font-semibold">
          Invite someone
        </h2>
        {cannotInvite ? <p className={muted}>{cannotInvite}</p> : <InviteForm />}
      </section>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading" className="mb-2 text-lg font-semibold">
          Members
        </h2>
        {cannotManage && <p className={`mb-2 ${muted}`}>{cannotManage}</p>}
        <Members me={me} />
      </section>
    </>
  );
}
