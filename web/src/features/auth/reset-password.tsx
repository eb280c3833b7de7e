import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useState } from "react";
import { api, apiError, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { AuthLayout } from "./auth-layout";
import { fragmentToken } from "./sign-up";

/**
 * `/forgot-password`: asks for a reset link. The answer is the same whether or not an account
 * uses the address (docs/accounts.md, "A forgotten password"), and so is what this page says.
 */
export function ForgotPassword() {
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/password-reset", { body: { email } })).then((r) => r.data),
  });
  const error = apiError(request.error);
  return (
    <AuthLayout title="Reset your password">
      {request.isSuccess ? (
        <div className="flex flex-col gap-4">
          <p role="status">
            We sent an email to {request.data.email}. If an account uses this address, it holds a link to choose a new password;
            the link works once, for a limited time. Nothing arrived? Check the spam folder, or the address.
          </p>
          <p className="text-sm">
            <Link to="/sign-in">Back to sign in</Link>
          </p>
        </div>
      ) : (
        <form onSubmit={submitWith(() => request.mutate())} className="flex flex-col gap-4" noValidate>
          <Muted>Enter the address you signed up with. We email you a link to choose a new password.</Muted>
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
          <Button type="submit" disabled={request.isPending}>
            {request.isPending ? "Sending…" : "Send the link"}
          </Button>
          <p className="text-sm">
            Remembered it? <Link to="/sign-in">Sign in</Link>
          </p>
        </form>
      )}
    </AuthLayout>
  );
}

/**
 * `/reset-password#token=…`, the link of the reset email: the new password is set on the button,
 * never on opening the page (a mail scanner that opens links must not use them up).
 */
export function ResetPassword() {
  const [token] = useState(fragmentToken);
  const [password, setPassword] = useState("");
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: (t: string) => unwrap(api.POST("/api/v1/auth/password-reset/confirm", { body: { token: t, password } })),
    // Every session of the account ended, this browser's too: forget what it showed.
    onSuccess: () => queryClient.clear(),
  });
  const error = apiError(reset.error);
  const linkSpent = error?.code === "EMAIL_LINK_INVALID" || error?.code === "EMAIL_LINK_EXPIRED";
  return (
    <AuthLayout title="Choose a new password">
      {!token ? (
        <div className="flex flex-col gap-4">
          <FormError message="This link is incomplete. Copy the whole link from the email, or ask for a new one." />
          <Link to="/forgot-password">Ask for a new link</Link>
        </div>
      ) : reset.isSuccess ? (
        <div className="flex flex-col gap-4">
          <p role="status">The password of {reset.data.data.email} is changed, and every session of the account is signed out.</p>
          <Link to="/sign-in">Sign in with the new password</Link>
        </div>
      ) : (
        <form onSubmit={submitWith(() => reset.mutate(token))} className="flex flex-col gap-4" noValidate>
          <FormError message={error?.formMessage} />
          {linkSpent && <Link to="/forgot-password">Ask for a new link</Link>}
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            required
            minLength={10}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={error?.field("password")}
            hint="At least 10 characters. Every session of the account is signed out."
          />
          <Button type="submit" disabled={reset.isPending || linkSpent}>
            {reset.isPending ? "Saving…" : "Set the new password"}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
