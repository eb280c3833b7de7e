import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useId, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { CopyField } from "../../components/ui/copy";
import { FormError, SelectField, TextField } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { refusal, useMe } from "../../lib/access";
import { convertedForm, SERVICES, type ServiceId, serviceById } from "./moving-in";
import { List, Words } from "./moving-in-words";
import { compatibilityOf, type Source, setCompatibility } from "./queries";
import { SECRET_PLACEHOLDER } from "./snippets";

/** The honeypot name a form's `netlify-honeypot` attribute gave (never posted): 1 to 100 characters, no `_` first. */
const honeypotProblem = (name: string) =>
  name.length > 100
    ? "At most 100 characters."
    : name.startsWith("_")
      ? "A name starting with _ is a control field already: leave it empty, or give the name without _."
      : undefined;

/** What the panel reads of a source: a listed one, or one just created (whose answer has no counts). */
export type MovingInSource = Pick<Source, "id" | "name" | "webhookUrl" | "formId" | "compatibility">;

/**
 * "Coming from another service?" in a source's setup (docs/moving-in.md): pick the service the
 * form posted to, then what to change in it, the fields Inlet understands, the form converted,
 * the switch that makes this source read that service's field names, and the form's Import page.
 */
export function MovingIn({
  siteId,
  source,
  secret,
  domain,
}: {
  siteId: string;
  source: MovingInSource;
  secret?: string | undefined;
  /** The site's domain, where the converted form's thank-you page is. */
  domain?: string | null | undefined;
}) {
  const me = useMe();
  const queryClient = useQueryClient();
  const current = compatibilityOf(source);
  const [picked, setPicked] = useState<ServiceId>(current?.service ?? "formspree");
  const [honeypot, setHoneypot] = useState(current?.honeypotField ?? "");
  const [said, setSaid] = useState("");
  const service = serviceById(picked);
  const on = current?.service === picked;
  const why = refusal(me, "sites.edit");
  const switchId = useId();
  const save = useMutation({
    mutationFn: (next: ReturnType<typeof compatibilityOf>) => setCompatibility(siteId, source.id, next),
    onSuccess: async (_, next) => {
      setSaid(
        next
          ? `Saved: ${source.name} reads ${serviceById(next.service).name} fields.`
          : `Saved: ${source.name} reads Inlet's own field names only.`,
      );
      await queryClient.invalidateQueries({ queryKey: queryKeys.webhooks.ofSite(siteId) });
    },
  });
  const problem = honeypotProblem(honeypot.trim());
  const error = apiError(save.error);
  const settingFor = (enabled: boolean) =>
    enabled ? { service: picked, honeypotField: picked === "netlify" && honeypot.trim() ? honeypot.trim() : null } : null;
  return (
    <details className="rounded-md border border-slate-200 p-3 dark:border-slate-700">
      <summary className="cursor-pointer font-medium">Coming from another service?</summary>
      <div className="mt-3 flex flex-col gap-4">
        <SelectField
          label="The service your form posts to now"
          value={picked}
          onChange={(e) => setPicked(e.target.value as ServiceId)}
          options={SERVICES.map((s) => ({ value: s.id, label: s.name }))}
        />
        <List title="What to change in the form" items={service.change} ordered />
        <div>
          <h4 className="font-medium">Fields Inlet understands from {service.name}</h4>
          <dl className="mt-1 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            {service.fields.map((f) => (
              <div key={f.name} className="contents">
                <dt>
                  <code>{f.name}</code>
                </dt>
                <dd>
                  <Words text={f.meaning} />
                  {f.needsSetting ? " (with the setting below on)" : ""}
                </dd>
              </div>
            ))}
          </dl>
        </div>
        <List title="Read and ignored" items={service.ignored} />
        <List title={`Set again in Inlet (${service.name} keeps these in its dashboard)`} items={service.reenter} />
        <CopyField
          label={`Your ${service.name} form, moved to Inlet`}
          value={convertedForm(picked, {
            url: source.webhookUrl,
            key: secret ?? SECRET_PLACEHOLDER,
            honeypotField: honeypot.trim(),
            domain,
          })}
          multiline
        />
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-2">
            <input
              id={switchId}
              type="checkbox"
              role="switch"
              checked={on}
              aria-checked={on}
              disabled={why !== undefined || save.isPending || (problem !== undefined && !on)}
              aria-describedby={`${switchId}-hint`}
              onChange={(e) => save.mutate(settingFor(e.target.checked))}
              className="h-4 w-4 accent-indigo-700 dark:accent-indigo-400"
            />
            <label htmlFor={switchId} className="text-sm font-medium">
              Read {service.name} fields on this source
            </label>
          </div>
          <Muted className="text-sm">
            <span id={`${switchId}-hint`}>
              {why ??
                (current && !on
                  ? `This source reads ${serviceById(current.service).name} fields now; turning this on reads ${service.name}'s instead.`
                  : "Unprefixed names (subject, redirect, botcheck, access_key, form-name…) are control fields only on a source set to their service; names starting with _ are read on every source.")}
            </span>
          </Muted>
        </div>
        {picked === "netlify" && (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              if (!problem) save.mutate(settingFor(true));
            }}
          >
            <TextField
              label="Honeypot field name"
              value={honeypot}
              onChange={(e) => setHoneypot(e.target.value)}
              hint="What your form's netlify-honeypot attribute says; empty means bot-field."
              error={problem ?? error?.field("compatibility.honeypotField")}
              maxLength={101}
            />
            <Button type="submit" variant="secondary" disabled={why !== undefined || save.isPending || problem !== undefined}>
              Save the honeypot name
            </Button>
          </form>
        )}
        <p role="status" className="text-sm">
          {said}
        </p>
        <FormError message={error?.formMessage} />
        <div>
          <h4 className="font-medium">Old submissions</h4>
          <p className="text-sm">
            <Words text={service.bringSubmissions} />{" "}
            {source.formId ? (
              <Link to="/forms/$formId/import" params={{ formId: source.formId }}>
                Import old submissions into this source's form
              </Link>
            ) : (
              "This source's form is made by its first submission; its Import page is then one tab away."
            )}
          </p>
        </div>
        <Muted>
          Unverified: <Words text={service.unverified} />
        </Muted>
      </div>
    </details>
  );
}
