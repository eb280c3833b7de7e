import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate, useSearch } from "@tanstack/react-router";
import { useState } from "react";
import { api, apiError, COOKIE_SESSION, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { safeReturnPath } from "../../lib/format";
import { AuthLayout } from "./auth-layout";

export function SignIn() {
  const { redirect } = useSearch({ from: "/sign-in" });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const login = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/login", { body: { email, password }, headers: COOKIE_SESSION })),
    onSuccess: async () => {
      await queryClient.invalidateQueries();
      await navigate({ href: safeReturnPath(redirect) });
    },
  });
  const error = apiError(login.error);
  const submit = submitWith(() => login.mutate());
  return (
    <AuthLayout title="Sign in">
      <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
        {redirect && !error && <p className="text-sm text-slate-600 dark:text-slate-300">Sign in to continue where you were.</p>}
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
        <p className="text-sm">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <p className="text-sm">
          New to Inlet? <Link to="/sign-up">Create an account</Link>
        </p>
      </form>
    </AuthLayout>
  );
}
