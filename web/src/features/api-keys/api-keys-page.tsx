import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Dialog } from "radix-ui";
import { type ReactNode, useState } from "react";
import { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { CopyField } from "../../components/ui/copy";
import { ConfirmButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { useToast } from "../../components/ui/toast";
import { formatAgo, formatDateTime } from "../../lib/format";
import { apiKeysRefusal, useMe } from "../auth/access";
import { type CreatedKey, CreateKeyForm } from "./create-key";
import { type ApiKey, apiKeysQuery, deleteKey, KEY_LIMIT, keyKeys, OFFERED_PERMISSIONS, revokeKey } from "./queries";

const TITLE = "API keys";
const muted = "text-sm text-slate-600 dark:text-slate-300";

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
function KeyRow({ apiKey }: { apiKey: ApiKey }) {
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
      await queryClient.invalidateQueries({ queryKey: keyKeys.all });
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
        <p className={`mt-2 ${muted}`}>
          Its creator left, so it is refused (401 <code>API_KEY_ORPHANED</code>) and cannot be handed to anyone else: revoke it,
          delete it, and create a new key for whoever needs one.
        </p>
      )}
      {act.error && (
        <div className="mt-2">
          <FormError message={apiError(act.error)?.message ?? act.error.message} />
        </div>
      )}
    </li>
  );
}

/** The secret of a key just created: shown this once, with a copy button; closing the dialog forgets it. */
function SecretShown({ apiKey }: { apiKey: CreatedKey }) {
  return (
    <div className="flex flex-col gap-4">
      <p role="note" className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:bg-amber-900 dark:text-amber-50">
        Copy the secret now: this is the only time it is shown. Inlet keeps only a hash of it, so a lost secret cannot be
        recovered; revoke the key and create a new one instead.
      </p>
      <CopyField label="Secret key" value={apiKey.secretKey} />
      <p className={muted}>
        Send it as <code>Authorization: Bearer &lt;secret key&gt;</code>.{" "}
        {apiKey.expiresAt ? `It expires on ${formatDateTime(apiKey.expiresAt)}.` : "It never expires."}
      </p>
      <div className="flex justify-end">
        <Dialog.Close asChild>
          <Button variant="secondary">Close</Button>
        </Dialog.Close>
      </div>
    </div>
  );
}

function Keys() {
  const list = useQuery(apiKeysQuery);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedKey>();
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  const { keys } = list.data;
  const full = keys.length >= KEY_LIMIT;
  return (
    <>
      <PageHeader
        title={TITLE}
        description="Keys let your own scripts and services use the API. Each key holds only the permissions you give it."
        actions={
          <Button onClick={() => setCreating(true)} disabled={full} aria-describedby="key-count">
            New API key
          </Button>
        }
      />
      <p id="key-count" className="mb-4 text-sm">
        <strong>
          {keys.length} of {KEY_LIMIT}
        </strong>{" "}
        keys used (revoked keys count until they are permanently deleted).
        {full && " The limit is reached: permanently delete a revoked key to make room."}
      </p>
      {keys.length === 0 ? (
        <p className={muted}>No API keys yet.</p>
      ) : (
        <ul aria-label="API keys" className="flex flex-col gap-3">
          {keys.map((key) => (
            <KeyRow key={key.id} apiKey={key} />
          ))}
        </ul>
      )}
      <Modal
        open={creating}
        onOpenChange={(open) => {
          setCreating(open);
          if (!open) setCreated(undefined);
        }}
        title={created ? `${created.name} is ready` : "New API key"}
      >
        {created ? <SecretShown apiKey={created} /> : <CreateKeyForm onCreated={setCreated} />}
      </Modal>
    </>
  );
}

/** Settings → API keys: owners and admins on Agency or Enterprise; anyone else reads why not. */
export function ApiKeysPage() {
  const me = useMe();
  const refusal = apiKeysRefusal(me);
  if (refusal) {
    return (
      <>
        <PageHeader title={TITLE} />
        <section aria-labelledby="keys-unavailable" className={card}>
          <h2 id="keys-unavailable" className="font-medium">
            API keys are not available to you
          </h2>
          <p className={`mt-1 ${muted}`}>{refusal}</p>
        </section>
      </>
    );
  }
  return <Keys />;
}
