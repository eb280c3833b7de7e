import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api, apiError, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";

/** The password, changed with the current one: every other session of the account ends. */
function ChangePassword() {
  const toast = useToast();
  const [form, setForm] = useState({ currentPassword: "", newPassword: "" });
  const change = useMutation({
    mutationFn: () => unwrap(api.PUT("/api/v1/auth/password", { body: form })),
    onSuccess: () => {
      setForm({ currentPassword: "", newPassword: "" });
      toast("Password changed. Every other session is signed out.");
    },
  });
  const error = apiError(change.error);
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  return (
    <form onSubmit={submitWith(() => change.mutate())} className="flex max-w-md flex-col gap-3" noValidate>
      <h3 className="font-medium">Change password</h3>
      <FormError message={error?.formMessage} />
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        required
        value={form.currentPassword}
        onChange={set("currentPassword")}
        error={error?.field("currentPassword")}
      />
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        value={form.newPassword}
        onChange={set("newPassword")}
        error={error?.field("newPassword")}
        hint="At least 10 characters. Your other sessions are signed out; this one stays."
      />
      <div>
        <Button type="submit" variant="secondary" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change password"}
        </Button>
      </div>
    </form>
  );
}

/** "Sign out everywhere else": every session of the account but this one ends. */
function SignOutElsewhere() {
  const end = useMutation({ mutationFn: () => unwrap(api.POST("/api/v1/auth/logout/others")) });
  return (
    <div className="flex flex-col items-start gap-2">
      <h3 className="font-medium">Other sessions</h3>
      <Muted>
        Signed in on another computer, or worried your password leaked? Sign out every other session; change the password too if
        it may be known.
      </Muted>
      <Button variant="secondary" disabled={end.isPending} onClick={() => end.mutate()}>
        {end.isPending ? "Signing out…" : "Sign out everywhere else"}
      </Button>
      {end.isSuccess && (
        <p role="status" className="text-sm">
          Every other session is signed out.
        </p>
      )}
      <FormError message={apiError(end.error)?.message} />
    </div>
  );
}

/** Settings → Account: the password and the account's other sessions. */
export function PasswordAndSessions() {
  return (
    <section aria-labelledby="password-heading" className={`${card} mb-6`}>
      <h2 id="password-heading" className="mb-3 text-lg font-semibold">
        Password and sessions
      </h2>
      <div className="flex flex-col gap-6">
        <ChangePassword />
        <SignOutElsewhere />
      </div>
    </section>
  );
}
