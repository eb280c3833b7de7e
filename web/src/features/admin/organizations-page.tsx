import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton } from "../../components/ui/dialog";
import { FormError, SelectField, TextField } from "../../components/ui/field";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Cell, Row, RowHeader, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { API_KEY_PLANS, PLAN_NAMES, useMe } from "../../lib/access";
import { formatDateTime } from "../../lib/format";
import { changePlan, type OrganizationSummary, organizationsQuery, type Plan } from "./queries";

const route = getRouteApi("/app/admin/organizations");
const COLUMNS = [{ label: "Organization" }, { label: "Plan" }, { label: "Created" }, { label: "Change the plan" }];
const PLAN_OPTIONS = (Object.keys(PLAN_NAMES) as Plan[]).map((value) => ({ value, label: PLAN_NAMES[value] }));

/** What a plan change does to the organization's API keys, in words. */
function planEffect(from: Plan, to: Plan): string {
  const had = API_KEY_PLANS.includes(from);
  const has = API_KEY_PLANS.includes(to);
  if (had && !has)
    return "Its API keys stop working from their next request (403 PLAN_REQUIRED) until it is on Agency or Enterprise again.";
  if (!had && has) return "It can create and use API keys from now on.";
  if (had && has) return "Its API keys move to the new plan's rate limit at once.";
  return "It has no API keys on either plan.";
}

function OrganizationRow({ org }: { org: OrganizationSummary }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [plan, setPlan] = useState<Plan>(org.plan);
  const change = useMutation({
    mutationFn: () => changePlan(org.id, plan),
    onSuccess: async (updated) => {
      toast(`${updated.name} is now on the ${PLAN_NAMES[updated.plan]} plan`);
      await queryClient.invalidateQueries({ queryKey: queryKeys.organizations });
    },
  });
  return (
    <Row>
      <RowHeader>
        {org.name}
        <div className="font-mono text-xs font-normal text-slate-600 dark:text-slate-300">{org.id}</div>
      </RowHeader>
      <Cell>{PLAN_NAMES[org.plan]}</Cell>
      <Cell>
        <time dateTime={org.createdAt}>{formatDateTime(org.createdAt)}</time>
      </Cell>
      <Cell>
        <div className="flex flex-wrap items-end gap-2">
          <SelectField
            label={`New plan for ${org.name}`}
            options={PLAN_OPTIONS}
            value={plan}
            onChange={(e) => setPlan(e.target.value as Plan)}
          />
          <ConfirmButton
            label="Change plan"
            disabled={change.isPending || plan === org.plan}
            title={`Move ${org.name} to the ${PLAN_NAMES[plan]} plan?`}
            description={
              <p>
                From {PLAN_NAMES[org.plan]} to {PLAN_NAMES[plan]}. {planEffect(org.plan, plan)}
              </p>
            }
            confirmLabel="Change plan"
            onConfirm={() => change.mutate()}
          />
        </div>
        <FormError className="mt-2" message={change.error?.message} />
      </Cell>
    </Row>
  );
}

function Organizations() {
  const { q = "" } = route.useSearch();
  const navigate = route.useNavigate();
  const list = useInfiniteQuery(organizationsQuery);
  if (list.isPending) return <Loading />;
  if (list.isError) return <FormError message={list.error.message} />;
  const all = list.data.pages.flatMap((p) => p.organizations);
  const needle = q.trim().toLowerCase();
  const shown = needle === "" ? all : all.filter((o) => o.name.toLowerCase().includes(needle) || o.id.toLowerCase() === needle);
  return (
    <>
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <TextField
          label="Search organizations"
          type="search"
          className="min-w-64 flex-1"
          hint="By name, or an exact organization id."
          value={q}
          onChange={(e) => void navigate({ search: e.target.value === "" ? {} : { q: e.target.value }, replace: true })}
        />
      </div>
      <Muted role="status" className="mb-2">
        {needle === ""
          ? `${all.length} organizations${list.hasNextPage ? " loaded, newest first" : ""}.`
          : `${shown.length} of the ${all.length} organizations${list.hasNextPage ? " loaded so far" : ""} match.`}
      </Muted>
      <Table caption="Organizations and their plans" columns={COLUMNS}>
        {shown.map((org) => (
          <OrganizationRow key={org.id} org={org} />
        ))}
      </Table>
      {list.hasNextPage && (
        <Button variant="secondary" className="mt-3" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {list.isFetchingNextPage ? "Loading…" : needle === "" ? "Load more organizations" : "Search older organizations"}
        </Button>
      )}
    </>
  );
}

/** Platform admins: every organization on the service, searched, and its plan changed. */
export function OrganizationsPage() {
  const me = useMe();
  return (
    <>
      <PageHeader title="Organizations" description="Every organization on this service, newest first, and its plan." />
      {me.platformAdmin ? (
        <Organizations />
      ) : (
        <section className={card} aria-labelledby="admins-only">
          <h2 id="admins-only" className="font-medium">
            For platform admins only
          </h2>
          <Muted className="mt-1">
            This page lists every organization on the service. Only its platform admins (listed, verified addresses) can see it.
          </Muted>
        </section>
      )}
    </>
  );
}
