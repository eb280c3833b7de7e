import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { useToast } from "../../components/ui/toast";
import type { Refusal } from "../../lib/access";
import { afterUpdate, type Site, updateSite } from "./queries";
import { Reason } from "./reason";

/** Name, domain, reference prefix and whether the site accepts submissions (`PUT /api/v1/sites/{id}`). */
export function GeneralForm({ site, refusal }: { site: Site; refusal: Refusal }) {
  const allowed = refusal === undefined;
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(site.name);
  const [domain, setDomain] = useState(site.domain ?? "");
  const [prefix, setPrefix] = useState(site.referencePrefix);
  const [active, setActive] = useState(site.isActive);
  const save = useMutation({
    mutationFn: () =>
      updateSite(site.id, {
        name,
        domain: domain.trim() === "" ? null : domain,
        referencePrefix: prefix.trim(),
        isActive: active,
      }),
    onSuccess: async (saved) => {
      // What the API stored (the domain lower-cased, the name trimmed).
      setName(saved.name);
      setDomain(saved.domain ?? "");
      setPrefix(saved.referencePrefix);
      setActive(saved.isActive);
      toast("Site settings saved");
      await afterUpdate(queryClient, saved);
    },
  });
  const error = apiError(save.error);
  return (
    <form onSubmit={submitWith(() => save.mutate())} className="flex flex-col gap-4" noValidate aria-labelledby="general-heading">
      <FormError message={error?.formMessage} />
      <fieldset disabled={!allowed} className="flex flex-col gap-4">
        <TextField
          label="Site name"
          required
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={error?.field("name")}
        />
        <TextField
          label="Domain"
          placeholder="example.com"
          value={domain}
          onChange={(e) => setDomain(e.target.value)}
          error={error?.field("domain")}
          hint="The host name your forms live on, without https:// or a path (subdomains count too). Redirects after a submission may only go there, and a captcha solved elsewhere is refused. Leave it empty to allow any."
        />
        <TextField
          label="Reference prefix"
          value={prefix}
          onChange={(e) => setPrefix(e.target.value.toUpperCase())}
          error={error?.field("referencePrefix")}
          hint={`2 to 10 upper-case letters or digits. New submissions are numbered ${prefix || "SUB"}-1042; earlier ones keep their reference.`}
          maxLength={10}
          autoComplete="off"
        />
        <div className="flex items-start gap-2">
          <input
            id="site-active"
            type="checkbox"
            className="mt-1 size-4"
            checked={active}
            onChange={(e) => setActive(e.target.checked)}
            aria-describedby="site-active-hint"
          />
          <div>
            <label htmlFor="site-active" className="text-sm font-medium">
              Accept submissions
            </label>
            <p id="site-active-hint" className="text-xs text-slate-600 dark:text-slate-400">
              When off, every source of this site refuses submissions (403 SITE_INACTIVE); nothing is deleted.
            </p>
          </div>
        </div>
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!allowed || save.isPending}>
          {save.isPending ? "Saving…" : "Save settings"}
        </Button>
        <Reason text={refusal} />
      </div>
    </form>
  );
}
