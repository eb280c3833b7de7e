import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { type ReactNode, useState } from "react";
import { api, apiError, COOKIE_SESSION, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { safeReturnPath } from "../../lib/format";
import { AuthLayout } from "./auth-layout";

/**
 * Email and password, signed in as an HttpOnly cookie; `onSignedIn` runs once every cached answer
 * was refetched. Also used in place by the pages of emailed links, whose token must stay in the
 * fragment of their own URL (never in a `?redirect=`).
 */
export function SignInForm({
  onSignedIn,
  initialEmail = "",
  intro,
  footer,
}: {
  onSignedIn: () => Promise<unknown>;
  initialEmail?: string;
  intro?: ReactNode;
  footer?: ReactNode;
}) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState(initialEmail);
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/login", { body: { email, password }, headers: COOKIE_SESSION })),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await onSignedIn();
    },
  });
  const error = apiError(login.error);
  const submit = submitWith(() => login.mutate());
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {!error && intro}
      <FormError message={error?.formMessage} />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={error?.field("email")}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={error?.field("password")}
      />
      <Button type="submit" disabled={login.isPending}>
        {login.isPending ? "Signing in…" : "Sign in"}
      </Button>
      {footer}
    </form>
  );
}

export function SignIn() {
  const { redirect } = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  return (
    <AuthLayout title="Sign in">
      <SignInForm
        onSignedIn={() => navigate({ href: safeReturnPath(redirect) })}
        intro={redirect && <Muted>Sign in to continue where you were.</Muted>}
        footer={
          <>
            <p className="text-sm">
              <Link to="/forgot-password">Forgot your password?</Link>
            </p>
            <p className="text-sm">
              New to Inlet? <Link to="/sign-up">Create an account</Link>
            </p>
          </>
        }
      />
    </AuthLayout>
  );
}
