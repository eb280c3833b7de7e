import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useRouterState } from "@tanstack/react-router";
import { useState } from "react";
import { ApiError, api, apiError, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Answer } from "../../api/types";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { formatDateTime } from "../../lib/format";
import { signOut } from "../../lib/session";
import { AuthLayout } from "./auth-layout";
import { SignInForm } from "./sign-in";

/** The token in the page's fragment (`#token=…`), following the fragment when another link opens in this tab. */
export function useFragmentToken(): string | undefined {
  const hash = useRouterState({ select: (state) => state.location.hash });
  return new URLSearchParams(hash.replace(/^#/, "")).get("token") ?? undefined;
}

/**
 * What an emailed link is for (`POST /v1/auth/email-links/describe`), asked once when its page
 * opens. Describing writes nothing: a page that only opens, a prefetch or a link scanner running
 * scripts changes nothing; only a person's click on the page's button acts (docs/accounts.md).
 */
export function useEmailLink(token: string | undefined) {
  return useQuery({
    // Kept in memory only, as the page's URL keeps the token anyway; never cached after the page.
    queryKey: queryKeys.emailLink(token),
    queryFn: async () => (await unwrap(api.POST("/api/v1/auth/email-links/describe", { body: { token: token ?? "" } }))).data,
    enabled: token !== undefined,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

/**
 * Who is signed in here, or null: these pages are open to anyone (the link may be opened on
 * another device), so a missing session is an answer, not a reason to leave for sign-in.
 */
function useSignedIn() {
  return useQuery({
    queryKey: queryKeys.meOrNobody,
    queryFn: async () => {
      try {
        return (await unwrap(api.GET("/api/v1/auth/me"))).data;
      } catch (error) {
        if (error instanceof ApiError && error.signedOut) return null;
        throw error;
      }
    },
    retry: false,
  });
}

export type EmailLink = Answer<"describeEmailLinkResponse">;

/** The link's error, or that the link is incomplete. */
export function LinkProblem({ token, error }: { token: string | undefined; error: Error | null }) {
  if (!token) return <FormError message="This link is incomplete. Copy the whole link from the email." />;
  return (
    <FormError message={apiError(error)?.message ?? (error ? "The link could not be read. Please try again." : undefined)} />
  );
}

/** "The account "Ada" in the organization "Acme"". */
const accountOf = (link: EmailLink) =>
  `the account “${link.account?.name ?? "unknown"}” in the organization “${link.organization?.name ?? "unknown"}”`;

function Confirm({ token, link }: { token: string; link: EmailLink }) {
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const confirm = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/auth/verify-email", { body: { token } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.me }),
  });
  const [switching, setSwitching] = useState(false);
  if (confirm.isSuccess) {
    return (
      <p role="status">
        {confirm.data.data.email} is confirmed{link.purpose === "change" ? " as your account's address" : ""}.{" "}
        <Link to="/">Go to your dashboard</Link>
      </p>
    );
  }
  if (signedIn.isPending) return <Muted>Checking whether you are signed in…</Muted>;
  const me = signedIn.data;
  if (!me) {
    return (
      <SignInForm
        initialEmail={link.purpose === "verify" ? link.email : ""}
        intro={
          <p className="text-sm">
            To confirm, sign in to that account. Nothing is confirmed until you press the button that follows.
          </p>
        }
        onSignedIn={() => signedIn.refetch()}
      />
    );
  }
  const refused = apiError(confirm.error);
  return (
    <div className="flex flex-col items-start gap-3">
      <p className="text-sm">
        You are signed in as {me.user.name} ({me.user.email}) in {me.organization.name}.
      </p>
      <Button onClick={() => confirm.mutate()} disabled={confirm.isPending}>
        {confirm.isPending
          ? "Confirming…"
          : link.purpose === "change"
            ? `Use ${link.email} from now on`
            : `Confirm ${link.email}`}
      </Button>
      <FormError message={refused?.message} />
      {refused?.code === "EMAIL_LINK_OTHER_ACCOUNT" && (
        <Button
          variant="secondary"
          disabled={switching}
          onClick={async () => {
            setSwitching(true);
            await signOut().catch(() => undefined);
            queryClient.removeQueries({ queryKey: queryKeys.me });
            confirm.reset();
            await signedIn.refetch();
            setSwitching(false);
          }}
        >
          Sign in as another account
        </Button>
      )}
    </div>
  );
}

/**
 * `/verify-email#token=…`: the link of a verification or address-change email. It says which
 * address, account and organization the link is for, and confirms only on its button, from a
 * session of that account (signed in here if need be). "This was not me" leads to taking the
 * address back, never to confirming.
 */
export function VerifyEmail() {
  const token = useFragmentToken();
  const described = useEmailLink(token);
  const link = described.data;
  return (
    <AuthLayout title="Confirm your email">
      <div className="flex flex-col gap-4">
        <LinkProblem token={token} error={described.error} />
        {described.isLoading && <Muted>Reading the link…</Muted>}
        {token && link?.purpose === "reclaim" && (
          <p className="text-sm">
            This link takes back {link.email}.{" "}
            <Link to="/reclaim-email" hash={`token=${token}`}>
              Continue
            </Link>
          </p>
        )}
        {token && link && link.purpose !== "reclaim" && (
          <>
            <p>
              {link.purpose === "change"
                ? `This link makes ${link.email} the new address of ${accountOf(link)}.`
                : `This link confirms ${link.email} for ${accountOf(link)}.`}
            </p>
            <Muted>It works once, until {formatDateTime(link.expiresAt)}.</Muted>
            <Confirm token={token} link={link} />
            <section aria-labelledby="not-me-heading" className="border-t border-slate-200 pt-4 dark:border-slate-700">
              <h2 id="not-me-heading" className="mb-1 text-base font-semibold">
                This was not me
              </h2>
              {link.purpose === "verify" ? (
                <p className="text-sm">
                  Someone else used your address. Do not confirm it.{" "}
                  <Link to="/reclaim-email" hash={`token=${token}`}>
                    Take my address back
                  </Link>{" "}
                  and create your own account with it; that account loses it.
                </p>
              ) : (
                <p className="text-sm">Then close this page: nothing changes unless that account confirms this address.</p>
              )}
            </section>
          </>
        )}
      </div>
    </AuthLayout>
  );
}
