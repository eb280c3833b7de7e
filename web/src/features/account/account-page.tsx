import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { SignOutButton } from "../../components/sign-out-button";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { card, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { API_KEY_PLANS, type Me, PLAN_NAMES, ROLE_NAMES, refusal, useMe } from "../../lib/access";
import { meQuery } from "../../lib/session";
import { DisplayName } from "./display-name";
import { EmailAddress } from "./email-address";
import { Notifications } from "./notifications";
import { PasswordAndSessions } from "./password";
import { renameOrganization, resendVerification } from "./queries";

/** The address's state, and a new link for an unverified one. */
function Verification({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const resend = useMutation({
    mutationFn: resendVerification,
    onError: async (error) => {
      // Verified meanwhile (in another tab): show it as it is now.
      if (apiError(error)?.code === "EMAIL_ALREADY_VERIFIED") await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
  if (me.user.emailVerified) return <p className="text-sm">Verified.</p>;
  if (me.user.emailLost) return <p className="text-sm">None: the account holds no address until you change it.</p>;
  return (
    <div className="flex flex-col items-start gap-2">
      <p className="text-sm">
        Not verified yet. We emailed a link to {me.user.email} when you signed up; it works once, for a limited time.
      </p>
      <Button variant="secondary" disabled={resend.isPending} onClick={() => resend.mutate()}>
        {resend.isPending ? "Sending…" : "Send a new verification link"}
      </Button>
      {resend.data && (
        <p role="status" className="text-sm">
          {resend.data.sent
            ? `A new link is on its way to ${resend.data.email}. Earlier links keep working until used or expired.`
            : "The email could not be sent just now. Please try again later."}
        </p>
      )}
      <FormError message={apiError(resend.error)?.message} />
    </div>
  );
}

function RenameOrganization({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [name, setName] = useState(me.organization.name);
  const rename = useMutation({
    mutationFn: () => renameOrganization(name),
    onSuccess: async (org) => {
      setName(org.name);
      toast(`The organization is now called ${org.name}`);
      await queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
    },
  });
  const error = apiError(rename.error);
  return (
    <form onSubmit={submitWith(() => rename.mutate())} className="flex flex-wrap items-end gap-3" noValidate>
      <TextField
        label="Organization name"
        required
        className="min-w-64 flex-1"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={error?.field("name")}
      />
      <Button type="submit" variant="secondary" disabled={rename.isPending || name === me.organization.name}>
        {rename.isPending ? "Saving…" : "Rename"}
      </Button>
      <div className="w-full">
        <FormError message={error?.formMessage} />
      </div>
    </form>
  );
}

/**
 * Settings → Account: the person (name, email verification, sign out), their email notifications,
 * their password and other sessions, and their organization (name, plan).
 */
export function AccountPage() {
  const me = useMe();
  const cannotRename = refusal(me, "settings.org");
  const keysIncluded = API_KEY_PLANS.includes(me.organization.plan);
  return (
    <>
      <PageHeader title="Account" description="You, and the organization you belong to." />
      <section aria-labelledby="you-heading" className={`${card} mb-6`}>
        <h2 id="you-heading" className="mb-3 text-lg font-semibold">
          You
        </h2>
        <div className="mb-4">
          <DisplayName me={me} />
        </div>
        <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Email address</dt>
          <dd>
            <EmailAddress me={me} />
          </dd>
          <dt className="font-medium">Verification</dt>
          <dd>
            <Verification me={me} />
          </dd>
          <dt className="font-medium">Role</dt>
          <dd>{ROLE_NAMES[me.role]}</dd>
        </dl>
        <div className="mt-4">
          <SignOutButton />
        </div>
      </section>
      <Notifications />
      <PasswordAndSessions />
      <section aria-labelledby="org-heading" className={card}>
        <h2 id="org-heading" className="mb-3 text-lg font-semibold">
          Organization
        </h2>
        {cannotRename ? (
          <dl className="grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">Name</dt>
            <dd>
              {me.organization.name}
              <Muted as="div">{cannotRename}</Muted>
            </dd>
          </dl>
        ) : (
          <RenameOrganization me={me} />
        )}
        <dl className="mt-3 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium">Plan</dt>
          <dd>
            {PLAN_NAMES[me.organization.plan]}
            <Muted as="div">
              {keysIncluded
                ? "Includes API keys."
                : "API keys come with the Agency and Enterprise plans. A platform admin of this service changes plans."}
            </Muted>
          </dd>
        </dl>
      </section>
    </>
  );
}
