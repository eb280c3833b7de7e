import { FormError } from "../../components/ui/field";
import { Muted } from "../../components/ui/text";
import { AuthLayout } from "./auth-layout";
import { type EmailLink, LinkProblem, useEmailLink, useFragmentToken } from "./email-links";
import { SignUpForm } from "./sign-up";

/** Who holds the address now, as far as the link tells. */
const holder = (link: EmailLink) =>
  link.purpose === "verify"
    ? `The account “${link.account?.name ?? "unknown"}” in the organization “${link.organization?.name ?? "unknown"}” was created with ${link.email} and never confirmed it.`
    : `An account that never confirmed ${link.email} holds it.`;

/**
 * `/reclaim-email#token=…`: the link of a reclaim email, or the "this was not me" link of a
 * verification email. It says whose claim the address would leave, and acts only when the person
 * creates their account with it: opening it changes nothing.
 */
export function ReclaimEmail() {
  const token = useFragmentToken();
  const described = useEmailLink(token);
  const link = described.data;
  const usable = link && (link.purpose === "reclaim" || link.purpose === "verify");
  return (
    <AuthLayout title="Take back your email address">
      <div className="flex flex-col gap-4">
        <LinkProblem token={token} error={described.error} />
        {described.isLoading && <Muted>Reading the link…</Muted>}
        {link && !usable && <FormError message="This link is not for taking an address back." />}
        {token && link && usable && (
          <>
            <p>{holder(link)}</p>
            <p className="text-sm">
              Create your own account with {link.email}: it is confirmed at once (this link proves the address is yours), and the
              other account loses it. Nothing happens until you press the button.
            </p>
            {link.invite && (
              <p className="text-sm">
                You join {link.invite.organization.name} as {link.invite.role}, as you were invited to.
              </p>
            )}
            <SignUpForm reclaim={{ token, email: link.email, joinsInvite: link.invite !== undefined }} />
          </>
        )}
      </div>
    </AuthLayout>
  );
}
