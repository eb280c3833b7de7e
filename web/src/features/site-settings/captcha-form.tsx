import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { apiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { useToast } from "../../components/ui/toast";
import type { Refusal } from "../../lib/access";
import type { CaptchaKind } from "./captcha-snippets";
import { afterUpdate, type Site, updateSite } from "./queries";
import { Reason } from "./reason";
import { Snippet } from "./snippet-tabs";

type Choice = CaptchaKind | "none";

const CHOICES: { value: Choice; label: string; hint: string }[] = [
  { value: "none", label: "No captcha", hint: "Submissions are only scored for spam." },
  {
    value: "score",
    label: "Score-based (reCAPTCHA v3)",
    hint: "Invisible: the provider scores each visitor and submissions below your minimum score are refused.",
  },
  {
    value: "challenge",
    label: "Challenge-based (hCaptcha or Cloudflare Turnstile)",
    hint: "Visitors solve (or silently pass) a widget in the form. Which vendor verifies is a deployment setting: hCaptcha unless it was changed to Turnstile.",
  },
];

/**
 * The site's captcha (`captcha` of `PUT /api/v1/sites/{id}`). The secret is write-only: the API
 * answers only `hasSecretKey`, so the field starts empty, and leaving it empty keeps the stored one.
 */
export function CaptchaForm({ site, refusal }: { site: Site; refusal: Refusal }) {
  const allowed = refusal === undefined;
  const queryClient = useQueryClient();
  const toast = useToast();
  const stored = site.captcha;
  const name = useId();
  const [choice, setChoice] = useState<Choice>(stored?.provider ?? "none");
  const [siteKey, setSiteKey] = useState(stored?.siteKey ?? "");
  const [secret, setSecret] = useState("");
  const [minScore, setMinScore] = useState(String(stored?.minScore ?? 0.5));
  const [missingSecret, setMissingSecret] = useState(false);
  // A stored secret belongs to its provider: another kind needs its own.
  const secretKept = stored?.hasSecretKey === true && stored.provider === choice;
  const save = useMutation({
    mutationFn: () =>
      updateSite(site.id, {
        captcha:
          choice === "none"
            ? null
            : {
                provider: choice,
                siteKey,
                ...(secret.trim() !== "" ? { secretKey: secret } : {}),
                ...(choice === "score" && minScore.trim() !== "" ? { minScore: Number(minScore) } : {}),
              },
      }),
    onSuccess: async (saved) => {
      setSecret("");
      setSiteKey(saved.captcha?.siteKey ?? siteKey);
      toast(saved.captcha ? "Captcha saved" : "Captcha turned off");
      await afterUpdate(queryClient, saved);
    },
  });
  const error = apiError(save.error);
  const submit = submitWith(() => {
    const needsSecret = choice !== "none" && !secretKept && secret.trim() === "";
    setMissingSecret(needsSecret);
    if (!needsSecret) save.mutate();
  });
  const secretError = missingSecret
    ? "Type the secret key from your captcha provider."
    : (error?.field("captcha.secretKey") ?? undefined);
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      <p className="text-sm" role="status">
        {stored
          ? `Now: ${stored.provider === "score" ? "score-based" : "challenge-based"} captcha${stored.hasSecretKey ? ", secret key stored" : ""}.`
          : "Now: no captcha."}
      </p>
      <fieldset disabled={!allowed} className="flex flex-col gap-4">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Captcha kind</legend>
          {CHOICES.map((c) => (
            <div key={c.value} className="flex items-start gap-2">
              <input
                id={`${name}-${c.value}`}
                type="radio"
                name={name}
                value={c.value}
                className="mt-1 size-4"
                checked={choice === c.value}
                onChange={() => {
                  setChoice(c.value);
                  setMissingSecret(false);
                }}
                aria-describedby={`${name}-${c.value}-hint`}
              />
              <div>
                <label htmlFor={`${name}-${c.value}`} className="text-sm">
                  {c.label}
                </label>
                <p id={`${name}-${c.value}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
                  {c.hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
        {choice === "none" && stored && <p className="text-sm">Saving turns captcha off and forgets the stored secret key.</p>}
        {choice !== "none" && (
          <>
            <TextField
              label="Site key"
              value={siteKey}
              onChange={(e) => setSiteKey(e.target.value)}
              error={error?.field("captcha.siteKey")}
              hint="The public key the widget is rendered with."
              autoComplete="off"
              spellCheck={false}
            />
            <TextField
              label={secretKept ? "Replace the secret key" : "Secret key"}
              type="password"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              error={secretError}
              hint={
                secretKept
                  ? "A secret key is stored. It is never shown again; leave this empty to keep it, or type a new one to replace it."
                  : "From your captcha provider's admin page. Inlet uses it to verify tokens and never shows it again."
              }
              autoComplete="new-password"
              spellCheck={false}
            />
            {choice === "score" && (
              <TextField
                label="Minimum score"
                type="number"
                min={0}
                max={1}
                step={0.1}
                value={minScore}
                onChange={(e) => setMinScore(e.target.value)}
                error={error?.field("captcha.minScore")}
                hint="From 0 (anyone passes) to 1 (only the most human-looking visitors). 0.5 is the provider's own advice."
              />
            )}
          </>
        )}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={!allowed || save.isPending}>
          {save.isPending ? "Saving…" : "Save captcha"}
        </Button>
        <Reason text={refusal} />
      </div>
      {choice !== "none" && (
        <section aria-labelledby={`${name}-snippet`} className="flex flex-col gap-2">
          <h3 id={`${name}-snippet`} className="font-medium">
            Snippet
          </h3>
          <Snippet kind={choice} siteKey={siteKey} />
        </section>
      )}
    </form>
  );
}
