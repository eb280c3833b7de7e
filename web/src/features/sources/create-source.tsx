import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, SelectField, submitWith, TextField } from "../../components/ui/field";
import { type CreatedSource, createSource, KIND_LABELS, type SourceKind } from "./queries";

const OPTIONS = (Object.keys(KIND_LABELS) as SourceKind[]).map((value) => ({ value, label: KIND_LABELS[value] }));

/** Name a new source and say what sends to it; the answer (with its secret) goes to `onCreated`. */
export function CreateSourceForm({ siteId, onCreated }: { siteId: string; onCreated: (source: CreatedSource) => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<SourceKind>("generic");
  const create = useMutation({
    mutationFn: () => createSource(siteId, { name, kind }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.ofSite(siteId) });
      onCreated(created);
    },
  });
  const error = apiError(create.error);
  const submit = submitWith(() => create.mutate());
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      <TextField
        label="Source name"
        required
        placeholder="Contact form"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error?.field("name")}
      />
      <SelectField
        label="What sends to it"
        options={OPTIONS}
        value={kind}
        onChange={(e) => setKind(e.target.value as SourceKind)}
      />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : "Create source"}
        </Button>
      </div>
    </form>
  );
}
