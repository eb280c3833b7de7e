import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { api, apiError, COOKIE_SESSION, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { AuthLayout } from "./auth-layout";
import { type EmailLink, LinkProblem, useEmailLink, useFragmentToken } from "./email-links";

const muted = "text-sm text-slate-600 dark:text-slate-300";

/** Who holds the address now, as far as the link tells. */
const holder = (link: EmailLink) =>
  link.purpose === "verify"
    ? `The account “${link.account?.name ?? "unknown"}” in the organization “${link.organization?.name ?? "unknown"}” was created with ${link.email} and never confirmed it.`
    : `An account that never confirmed ${link.email} holds it.`;

function ReclaimForm({ token, link }: { token: string; link: EmailLink }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: "", password: "", organizationName: "" });
  const signUp = useMutation({
    mutationFn: () => {
      const { organizationName, ...person } = form;
      // A link asked from an invite joins its organization; otherwise the person names their own.
      const body = { ...person, email: link.email, reclaimToken: token, ...(link.invite ? {} : { organizationName }) };
      return unwrap(api.POST("/api/v1/auth/signup", { body, headers: COOKIE_SESSION }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate({ to: "/" });
    },
  });
  const error = apiError(signUp.error);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  return (
    <form onSubmit={submitWith(() => signUp.mutate())} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      <TextField
        label="Your name"
        autoComplete="name"
        required
        value={form.name}
        onChange={set("name")}
        error={error?.field("name")}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        value={form.password}
        onChange={set("password")}
        error={error?.field("password")}
        hint="At least 10 characters."
      />
      {link.invite ? (
        <p className="text-sm">
          You join {link.invite.organization.name} as {link.invite.role}, as you were invited to.
        </p>
      ) : (
        <TextField
          label="Organization name"
          autoComplete="organization"
          required
          value={form.organizationName}
          onChange={set("organizationName")}
          error={error?.field("organizationName")}
        />
      )}
      <Button type="submit" disabled={signUp.isPending}>
        {signUp.isPending ? "Creating your account…" : "Take back my address"}
      </Button>
    </form>
  );
}

/**
 * `/reclaim-email#token=…`: the link of a reclaim email, or the "this was not me" link of a
 * verification email. It says whose claim the address would leave, and acts only when the person
 * creates their account with it: opening it changes nothing.
 */
export function ReclaimEmail() {
  const token = useFragmentToken();
  const described = useEmailLink(token);
  const link = described.data;
  const usable = link && (link.purpose === "reclaim" || link.purpose === "verify");
  return (
    <AuthLayout title="Take back your email address">
      <div className="flex flex-col gap-4">
        <LinkProblem token={token} error={described.error} />
        {described.isLoading && <p className={muted}>Reading the link…</p>}
        {link && !usable && <FormError message="This link is not for taking an address back." />}
        {token && link && usable && (
          <>
            <p>{holder(link)}</p>
            <p className="text-sm">
              Create your own account with {link.email}: it is confirmed at once (this link proves the address is yours), and the
              other account loses it. Nothing happens until you press the button.
            </p>
            <ReclaimForm token={token} link={link} />
          </>
        )}
      </div>
    </AuthLayout>
  );
}
