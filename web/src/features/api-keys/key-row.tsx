import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { queryKeys } from "../../api/keys";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { formatAgo, formatDateTime } from "../../lib/format";
import { type ApiKey, deleteKey, KEY_LIMIT, OFFERED_PERMISSIONS, revokeKey } from "./queries";

/** What is true of a key, in words (never colour alone): revoked, orphaned, expired, or active. */
function keyStates(key: ApiKey, now = Date.now()): string[] {
  const states: string[] = [];
  if (key.isRevoked) states.push("Revoked");
  if (key.isOrphaned) states.push("Orphaned: its creator left the organization");
  if (key.expiresAt && Date.parse(key.expiresAt) <= now) states.push("Expired");
  return states.length > 0 ? states : ["Active"];
}

function Permissions({ permissions }: { permissions: ApiKey["permissions"] }) {
  if (OFFERED_PERMISSIONS.every((p) => permissions.includes(p))) return <>All {OFFERED_PERMISSIONS.length} a key may hold</>;
  return (
    <ul className="flex flex-wrap gap-1">
      {permissions.map((p) => (
        <li key={p}>
          <code className="rounded bg-slate-100 px-1 text-xs dark:bg-slate-800">{p}</code>
        </li>
      ))}
    </ul>
  );
}

/** One fact of a key: its name above its value. */
function Detail({ term, wide = false, children }: { term: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={wide ? "sm:col-span-2" : ""}>
      <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{term}</dt>
      <dd className="mt-0.5">{children}</dd>
    </div>
  );
}

/** One key: what it is, who made it, its state, and revoke or (once revoked) delete. */
export function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const act = useMutation({
    mutationFn: async (action: "revoke" | "delete") => {
      if (action === "revoke") await revokeKey(apiKey.id);
      else await deleteKey(apiKey.id);
      return action;
    },
    onSuccess: async (action) => {
      toast(`${apiKey.name} ${action === "revoke" ? "revoked" : "permanently deleted"}`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
  const states = keyStates(apiKey);
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="font-medium">{apiKey.name}</h3>
          <p className="text-sm font-medium">{states.join(" · ")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {apiKey.isRevoked ? (
            <ConfirmButton
              label="Delete permanently"
              variant="danger"
              title={`Permanently delete ${apiKey.name}?`}
              description={
                <p>
                  The key leaves the list and frees its slot ({KEY_LIMIT} keys at most). It is already revoked, so nothing that
                  used it works any more. This cannot be undone.
                </p>
              }
              confirmLabel="Delete permanently"
              onConfirm={() => act.mutate("delete")}
            />
          ) : (
            <ConfirmButton
              label="Revoke"
              title={`Revoke ${apiKey.name}?`}
              description={
                <p>
                  Every request with this key is refused from the very next one (401 <code>API_KEY_REVOKED</code>). It stays
                  listed and keeps its slot until you delete it permanently. A revoked key cannot be made active again.
                </p>
              }
              confirmLabel="Revoke"
              onConfirm={() => act.mutate("revoke")}
            />
          )}
        </div>
      </div>
      <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-3">
        <Detail term="Prefix">
          <code>{apiKey.keyPrefix}…</code>
        </Detail>
        <Detail term="Rate limit">{apiKey.rateLimitPerMin} requests a minute</Detail>
        <Detail term="Last used">
          {apiKey.lastUsedAt ? (
            <time dateTime={apiKey.lastUsedAt} title={formatDateTime(apiKey.lastUsedAt)}>
              {formatAgo(apiKey.lastUsedAt)}
            </time>
          ) : (
            "Never"
          )}
        </Detail>
        <Detail term="Expires">
          {apiKey.expiresAt ? <time dateTime={apiKey.expiresAt}>{formatDateTime(apiKey.expiresAt)}</time> : "Never"}
        </Detail>
        <Detail term="Created by" wide>
          {apiKey.createdBy.name} ({apiKey.createdBy.email}) on{" "}
          <time dateTime={apiKey.createdAt}>{formatDateTime(apiKey.createdAt)}</time>
        </Detail>
        <Detail term="Permissions" wide>
          <Permissions permissions={apiKey.permissions} />
        </Detail>
      </dl>
      {apiKey.isOrphaned && !apiKey.isRevoked && (
        <Muted className="mt-2">
          Its creator left, so it is refused (401 <code>API_KEY_ORPHANED</code>) and cannot be handed to anyone else: revoke it,
          delete it, and create a new key for whoever needs one.
        </Muted>
      )}
      <FormError className="mt-2" message={act.error?.message} />
    </li>
  );
}
