import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { CopyField } from "../../components/ui/copy";
import { CloseButton } from "../../components/ui/dialog";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { RESTRICTED_KEY_PERMISSIONS } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { type ApiKey, createKey, type KeyPermission, OFFERED_PERMISSIONS, PERMISSION_GROUPS } from "./queries";

export type CreatedKey = Pick<ApiKey, "id" | "name" | "keyPrefix" | "expiresAt"> & { secretKey: string };

/** Why some permissions are missing from the list: in the form itself, where the question arises. */
function RestrictedNote() {
  return (
    <Muted>
      Not offered:{" "}
      {RESTRICTED_KEY_PERMISSIONS.map((p, i) => (
        <span key={p}>
          {i > 0 && ", "}
          <code>{p}</code>
        </span>
      ))}
      . No API key may hold them: they decide who belongs to the organization and how it is run (its email, billing and settings),
      or upload files (an import), so they stay with the owner and admins, signed in.
    </Muted>
  );
}

/** Name, permissions grouped by area, and expiry of a new key; the answer (with its secret) goes to `onCreated`. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedKey) => void }) {
  const queryClient = useQueryClient();
  const permissionsErrorId = useId();
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<ReadonlySet<KeyPermission>>(new Set(OFFERED_PERMISSIONS));
  const [days, setDays] = useState("");
  const create = useMutation({
    mutationFn: () =>
      createKey({
        name,
        // The form's own order, whatever order the boxes were ticked in.
        permissions: OFFERED_PERMISSIONS.filter((p) => chosen.has(p)),
        ...(days.trim() === "" ? {} : { expiresInDays: Number(days) }),
      }),
    // The answer holds the secret: once the dialog has shown it, the cache keeps no copy.
    gcTime: 0,
    onSuccess: async (key) => {
      onCreated(key);
      await queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
  const error = apiError(create.error);
  const permissionsError = error?.details.find((d) => d.path === "permissions" || d.path.startsWith("permissions."))?.message;
  const toggle = (permission: KeyPermission, on: boolean) =>
    setChosen((set) => {
      const next = new Set(set);
      if (on) next.add(permission);
      else next.delete(permission);
      return next;
    });
  return (
    <form onSubmit={submitWith(() => create.mutate())} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      <TextField
        label="Key name"
        required
        placeholder="CRM sync"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error?.field("name")}
      />
      <fieldset className="flex flex-col gap-3" aria-describedby={permissionsError ? permissionsErrorId : undefined}>
        <legend className="mb-1 text-sm font-medium">Permissions</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          {PERMISSION_GROUPS.map((group) => (
            <fieldset key={group.area} className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
              <legend className="px-1 text-sm font-semibold">{group.area}</legend>
              {group.permissions.map((p) => (
                <label key={p.name} className="flex items-center gap-2 py-0.5 text-sm">
                  <input type="checkbox" checked={chosen.has(p.name)} onChange={(e) => toggle(p.name, e.target.checked)} />
                  {p.label} <code className="text-xs text-slate-600 dark:text-slate-400">{p.name}</code>
                </label>
              ))}
            </fieldset>
          ))}
        </div>
        {permissionsError && (
          <p id={permissionsErrorId} className="text-sm text-red-700 dark:text-red-400">
            {permissionsError}
          </p>
        )}
        <RestrictedNote />
      </fieldset>
      <TextField
        label="Expires after (days)"
        type="number"
        inputMode="numeric"
        min={1}
        max={3650}
        value={days}
        onChange={(e) => setDays(e.target.value)}
        hint="From 1 to 3650 days. Leave it empty for a key that never expires."
        error={error?.field("expiresInDays")}
      />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create API key"}
        </Button>
      </div>
    </form>
  );
}

/** The secret of a key just created: shown this once, with a copy button; closing the dialog forgets it. */
export function SecretShown({ apiKey }: { apiKey: CreatedKey }) {
  return (
    <div className="flex flex-col gap-4">
      <p role="note" className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
        Copy the secret now: this is the only time it is shown. Inlet keeps only a hash of it, so a lost secret cannot be
        recovered; revoke the key and create a new one instead.
      </p>
      <CopyField label="Secret key" value={apiKey.secretKey} />
      <Muted>
        Send it as <code>Authorization: Bearer &lt;secret key&gt;</code>.{" "}
        {apiKey.expiresAt ? `It expires on ${formatDateTime(apiKey.expiresAt)}.` : "It never expires."}
      </Muted>
      <CloseButton />
    </div>
  );
}
