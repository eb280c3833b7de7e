import { useMutation } from "@tanstack/react-query";
import { api, apiError, unwrap } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";

/**
 * After a sign-up answered EMAIL_TAKEN: a link to take the address back, when an account that never
 * confirmed it holds it (`POST /v1/auth/reclaim-email`; with the invite the person was accepting).
 */
export function ReclaimOffer({ email, inviteToken }: { email: string; inviteToken?: string | undefined }) {
  const ask = useMutation({
    mutationFn: () =>
      unwrap(api.POST("/api/v1/auth/reclaim-email", { body: inviteToken ? { email, inviteToken } : { email } })).then(
        (r) => r.data,
      ),
  });
  if (ask.isSuccess) {
    return (
      <p role="status" className="text-sm">
        If an account that never confirmed {ask.data.email} holds it, a link to take it back is on its way there
        {inviteToken ? "; it also accepts your invite" : ""}.
      </p>
    );
  }
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-sm">Is it your address, and did you never create that account?</p>
      <Button variant="secondary" disabled={ask.isPending} onClick={() => ask.mutate()}>
        {ask.isPending ? "Sending…" : "Email me a link to take it back"}
      </Button>
      <FormError message={apiError(ask.error)?.message} />
    </div>
  );
}
