import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, SelectField } from "../../components/ui/field";
import { Cell, Row, RowHeader } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { type Me, mayManageMember, ROLE_NAMES } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { meQuery } from "../../lib/session";
import { changeRole, type InvitedRole, type Member, ROLE_OPTIONS, removeMember } from "./queries";

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

export function MemberRow({ member, me, keyNames }: { member: Member; me: Me; keyNames: string[] | undefined }) {
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
        queryClient.invalidateQueries({ queryKey: queryKeys.members }),
        // Their keys follow the role change or become orphaned.
        queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
        // An admin who made themselves a member: what the pages offer them changes now.
        member.id === me.user.id ? queryClient.invalidateQueries({ queryKey: meQuery.queryKey }) : undefined,
      ]);
    },
  });
  const isMe = member.id === me.user.id;
  const manageable = mayManageMember(me, member);
  return (
    <Row>
      <RowHeader>
        {member.name}
        {isMe && <span className="font-normal"> (you)</span>}
        <Muted as="div" className="font-normal">
          {member.email}
        </Muted>
      </RowHeader>
      <Cell>
        {manageable ? (
          <div className="flex items-end gap-2">
            <SelectField
              label={`Role of ${member.name}`}
              options={ROLE_OPTIONS}
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
            {member.role === "owner" && <Muted as="div">The owner's role cannot change.</Muted>}
          </>
        )}
      </Cell>
      <Cell>
        <time dateTime={member.createdAt}>{formatDateTime(member.createdAt)}</time>
      </Cell>
      <Cell>
        {manageable &&
          (isMe ? (
            <Muted>You cannot remove yourself; the owner or another admin can.</Muted>
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
        <FormError className="mt-2" message={act.error?.message} />
      </Cell>
    </Row>
  );
}
