import { useInfiniteQuery } from "@tanstack/react-query";
import { Button } from "../../components/ui/button";
import { FormError } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { type Me, refusal, useMe } from "../../lib/access";
import { InviteForm } from "./invite-form";
import { MemberRow } from "./member-row";
import { membersQuery } from "./queries";

/** The names of the active API keys a member made, when the person may see keys (composed in web/src/app/team-page.tsx). */
export type ActiveKeysOf = ((email: string) => string[]) | undefined;

const COLUMNS = [{ label: "Member" }, { label: "Role" }, { label: "Joined" }, { label: "Actions", hidden: true }];

function Members({ me, activeKeysOf }: { me: Me; activeKeysOf: ActiveKeysOf }) {
  const list = useInfiniteQuery(membersQuery);
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  const members = list.data.pages.flatMap((p) => p.members);
  return (
    <>
      <Table caption="Members and their roles" columns={COLUMNS}>
        {members.map((member) => (
          <MemberRow key={member.id} member={member} me={me} keyNames={activeKeysOf?.(member.email)} />
        ))}
      </Table>
      {list.hasNextPage && (
        <Button variant="secondary" className="mt-3" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : "Load more members"}
        </Button>
      )}
    </>
  );
}

/** Settings → Team: the members with their roles; inviting, role changes and removal for those allowed. */
export function TeamPage({ activeKeysOf }: { activeKeysOf: ActiveKeysOf }) {
  const me = useMe();
  const cannotInvite = refusal(me, "team.invite");
  const cannotManage = refusal(me, "team.manage");
  return (
    <>
      <PageHeader
        title="Team"
        description={`Who can sign in to ${me.organization.name}. Owner and admins can do everything; members work with forms and submissions and can look at sites and the team.`}
      />
      <section aria-labelledby="invite-heading" className={`${card} mb-6`}>
        <h2 id="invite-heading" className="mb-3 text-lg font-semibold">
          Invite someone
        </h2>
        {cannotInvite ? <Muted>{cannotInvite}</Muted> : <InviteForm />}
      </section>
      <section aria-labelledby="members-heading">
        <h2 id="members-heading" className="mb-2 text-lg font-semibold">
          Members
        </h2>
        {cannotManage && <Muted className="mb-2">{cannotManage}</Muted>}
        <Members me={me} activeKeysOf={activeKeysOf} />
      </section>
    </>
  );
}
