import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { CopyField } from "../../components/ui/copy";
import { FormError, SelectField, submitWith, TextField } from "../../components/ui/field";
import { formatDateTime } from "../../lib/format";
import { type InvitedRole, invite, ROLE_OPTIONS } from "./queries";

/** Invite someone by email; the answer is a link to send them, shown here once. */
export function InviteForm() {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<InvitedRole>("member");
  const send = useMutation({
    mutationFn: () => invite({ email, role }),
    // The link holds the invite's token: once shown, the cache keeps no copy.
    gcTime: 0,
    onSuccess: () => setEmail(""),
  });
  const error = apiError(send.error);
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submitWith(() => send.mutate())} className="flex flex-wrap items-end gap-3" noValidate>
        <TextField
          label="Email address"
          type="email"
          required
          autoComplete="off"
          className="min-w-64 flex-1"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error?.field("email")}
        />
        <SelectField label="Role" options={ROLE_OPTIONS} value={role} onChange={(e) => setRole(e.target.value as InvitedRole)} />
        <Button type="submit" disabled={send.isPending}>
          {send.isPending ? "Creating…" : "Create invite link"}
        </Button>
      </form>
      <FormError message={error?.formMessage} />
      {send.data && (
        <div className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 dark:border-slate-700" role="status">
          <p className="text-sm">
            Send this link to <strong>{send.data.email}</strong> (as {send.data.role === "admin" ? "an admin" : "a member"}). It
            works once, for that address only, until {formatDateTime(send.data.expiresAt)}. It is shown only now: Inlet keeps a
            hash of it, not the link.
          </p>
          <CopyField label="Invite link" value={send.data.inviteUrl} />
        </div>
      )}
    </div>
  );
}
