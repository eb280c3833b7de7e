import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { createSite } from "./queries";

/** Name a site (and, optionally, the domain its forms live on). */
export function CreateSiteForm({
  onCreated,
  submitLabel = "Create site",
}: {
  onCreated: (siteId: string) => void;
  submitLabel?: string;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [domain, setDomain] = useState("");
  const create = useMutation({
    mutationFn: () => createSite({ name, domain: domain.trim() === "" ? null : domain }),
    onSuccess: async (site) => {
      await queryClient.invalidateQueries({ queryKey: queryKeys.sites.all });
      onCreated(site.id);
    },
  });
  const error = apiError(create.error);
  const submit = submitWith(() => create.mutate());
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      <TextField label="Site name" required value={name} onChange={(e) => setName(e.target.value)} error={error?.field("name")} />
      <TextField
        label="Domain (optional)"
        placeholder="example.com"
        value={domain}
        onChange={(e) => setDomain(e.target.value)}
        error={error?.field("domain")}
        hint="Where your forms live. Redirects after a submission may only go there."
      />
      <div>
        <Button type="submit" disabled={create.isPending}>
          {create.isPending ? "Creating…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
