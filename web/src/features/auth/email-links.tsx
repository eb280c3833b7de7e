import { useMutation } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { ApiError, api, unwrap } from "../../api/client";
import { FormError } from "../../components/ui/field";
import { AuthLayout } from "./auth-layout";
import { fragmentToken } from "./sign-up";

/** `/verify-email#token=…`, the link of the verification email: confirms the address once. */
export function VerifyEmail() {
  const [token] = useState(fragmentToken);
  const verify = useMutation({
    mutationFn: (t: string) => unwrap(api.POST("/api/v1/auth/verify-email", { body: { token: t } })),
  });
  const { mutate } = verify;
  useEffect(() => {
    if (token) mutate(token);
  }, [token, mutate]);
  return (
    <AuthLayout title="Confirm your email">
      {!token && <FormError message="This link is incomplete. Copy the whole link from the email." />}
      {verify.isPending && <p role="status">Confirming…</p>}
      {verify.isSuccess && (
        <p role="status">
          {verify.data.data.email} is confirmed. <Link to="/">Go to your dashboard</Link>
        </p>
      )}
      {verify.error instanceof ApiError && <FormError message={verify.error.message} />}
    </AuthLayout>
  );
}
