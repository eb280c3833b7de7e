import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { api, apiError, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { useToast } from "../../components/ui/toast";
import type { Me } from "../../lib/access";
import { meQuery } from "../../lib/session";

/** The person's display name, changed in place (the header and the team list show it). */
export function DisplayName({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(me.user.name);
  const rename = useMutation({
    mutationFn: () => unwrap(api.PUT("/api/v1/auth/me", { body: { name } })).then((r) => r.data),
    onSuccess: async (updated) => {
      setName(updated.user.name);
      queryClient.setQueryData(meQuery.queryKey, updated);
      toast(`Your name is now ${updated.user.name}`);
      await queryClient.invalidateQueries();
    },
  });
  const error = apiError(rename.error);
  return (
    <form onSubmit={submitWith(() => rename.mutate())} className="flex flex-wrap items-end gap-3" noValidate>
      <TextField
        label="Your name"
        autoComplete="name"
        required
        className="min-w-64 flex-1"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error?.field("name")}
      />
      <Button type="submit" variant="secondary" disabled={rename.isPending || name === me.user.name}>
        {rename.isPending ? "Saving…" : "Save name"}
      </Button>
      <div className="w-full">
        <FormError message={error?.formMessage} />
      </div>
    </form>
  );
}
