import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { api, apiError, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import type { Me } from "../../lib/access";

const changeEmail = (body: { email: string; password: string }) =>
  unwrap(api.POST("/api/v1/auth/change-email", { body })).then((r) => r.data);

/**
 * A new address for the account (`POST /v1/auth/change-email`): a link goes to it, and the
 * account moves only once that link is confirmed, signed in; the old address is told then.
 */
function ChangeEmailForm({ me, onDone }: { me: Me; onDone: () => void }) {
  const [form, setForm] = useState({ email: "", password: "" });
  const change = useMutation({ mutationFn: () => changeEmail(form) });
  const error = apiError(change.error);
  if (change.isSuccess) {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="status" className="text-sm">
          {change.data.sent
            ? `A link is on its way to ${change.data.email}. Open it while signed in to this account and confirm it there; until then your address stays ${me.user.email}.`
            : "The email could not be sent just now. Please try again later."}
        </p>
        <Button variant="secondary" onClick={onDone}>
          Done
        </Button>
      </div>
    );
  }
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  return (
    <form onSubmit={submitWith(() => change.mutate())} className="flex flex-col gap-3" noValidate>
      <TextField
        label="New email address"
        type="email"
        autoComplete="email"
        required
        value={form.email}
        onChange={set("email")}
        error={error?.field("email")}
      />
      <TextField
        label="Your password"
        type="password"
        autoComplete="current-password"
        required
        value={form.password}
        onChange={set("password")}
        error={error?.field("password")}
        hint="So that nobody else at this computer can move your account."
      />
      <FormError message={error?.formMessage} />
      <div className="flex gap-2">
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? "Sending…" : "Send a confirmation link"}
        </Button>
        <Button variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** Settings → Account: the address, whether the account still holds it, and changing it. */
export function EmailAddress({ me }: { me: Me }) {
  const [changing, setChanging] = useState(me.user.emailLost);
  return (
    <div className="flex flex-col items-start gap-2">
      <span>{me.user.email}</span>
      {me.user.emailLost && (
        <p className="text-sm text-red-800 dark:text-red-300">
          The owner of this address took it back: you can no longer sign in with it. Set an address of your own while you are
          signed in.
        </p>
      )}
      {changing ? (
        <ChangeEmailForm me={me} onDone={() => setChanging(false)} />
      ) : (
        <Button variant="secondary" onClick={() => setChanging(true)}>
          Change email address
        </Button>
      )}
    </div>
  );
}
