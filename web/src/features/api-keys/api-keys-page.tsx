import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../../components/ui/button";
import { Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { apiKeysRefusal, useMe } from "../../lib/access";
import { type CreatedKey, CreateKeyForm, SecretShown } from "./create-key";
import { KeyRow } from "./key-row";
import { apiKeysQuery, KEY_LIMIT } from "./queries";

const TITLE = "API keys";

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
        <Muted>No API keys yet.</Muted>
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
          <Muted className="mt-1">{refusal}</Muted>
        </section>
      </>
    );
  }
  return <Keys />;
}
