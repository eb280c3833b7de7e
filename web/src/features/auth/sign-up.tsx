import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { api, apiError, COOKIE_SESSION, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { AuthLayout } from "./auth-layout";
import { ReclaimOffer } from "./reclaim-offer";

/** The token of a link whose secret travels in the fragment (`#token=…`), never sent to a server. */
export function fragmentToken(): string | undefined {
  return new URLSearchParams(window.location.hash.slice(1)).get("token") ?? undefined;
}

/** A reclaim link's sign-up: its address is fixed, and it may join the invite it was asked from. */
export interface Reclaim {
  token: string;
  email: string;
  joinsInvite: boolean;
}

/** A new account: its own organization, the invite's (`inviteToken`), or with a reclaimed address (`reclaim`). */
export function SignUpForm({ inviteToken, reclaim }: { inviteToken?: string | undefined; reclaim?: Reclaim }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ name: "", email: reclaim?.email ?? "", password: "", organizationName: "" });
  const joins = inviteToken !== undefined || reclaim?.joinsInvite === true;
  const signUp = useMutation({
    mutationFn: () => {
      const { organizationName, ...person } = form;
      const body = {
        ...person,
        ...(joins ? {} : { organizationName }),
        ...(inviteToken ? { inviteToken } : {}),
        ...(reclaim ? { reclaimToken: reclaim.token } : {}),
      };
      return unwrap(api.POST("/api/v1/auth/signup", { body, headers: COOKIE_SESSION }));
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate({ to: "/" });
    },
  });
  const error = apiError(signUp.error);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const submit = submitWith(() => signUp.mutate());
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={error?.formMessage} />
      {error?.code === "EMAIL_TAKEN" && !reclaim && <ReclaimOffer email={form.email} inviteToken={inviteToken} />}
      <TextField
        label="Your name"
        autoComplete="name"
        required
        value={form.name}
        onChange={set("name")}
        error={error?.field("name")}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={set("email")}
        error={error?.field("email")}
        readOnly={reclaim !== undefined}
        hint={inviteToken ? "The address the invite was sent to." : reclaim ? "The address the link came to." : undefined}
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
      {!joins && (
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
        {signUp.isPending
          ? "Creating your account…"
          : reclaim
            ? "Take back my address"
            : inviteToken
              ? "Accept the invite"
              : "Create account"}
      </Button>
      {!reclaim && (
        <p className="text-sm">
          Already have an account? <Link to="/sign-in">Sign in</Link>
        </p>
      )}
    </form>
  );
}

export function SignUp() {
  return (
    <AuthLayout title="Create your account">
      <SignUpForm />
    </AuthLayout>
  );
}

/** `/invite#token=…`: a sign-up that joins the inviting organization. */
export function InviteSignUp() {
  const [token] = useState(fragmentToken);
  return (
    <AuthLayout title="Join your team">
      {token ? (
        <SignUpForm inviteToken={token} />
      ) : (
        <FormError message="This invite link is incomplete. Ask for a new one, or copy the whole link." />
      )}
    </AuthLayout>
  );
}
