import { GetCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import type { Plan } from "../config";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { keys } from "./keys";
import { type Organization, toOrganization, updateOrganization } from "./organizations";
import { transact } from "./transactions";

/**
 * A platform admin's plan change with its audit entry in the affected organization's log, in one
 * transaction. The organization is read first (strongly) for the plan it changes from; the update
 * requires that plan still, so the entry's `from` is true (a change that lands between the read
 * and the write is read again). Setting the plan it already has writes as before, without an entry.
 */
export async function changeOrganizationPlan(
  orgId: string,
  plan: Plan,
  now: string,
  /** The entry, from the organization as it was (its plan and name). */
  audit: (current: Organization) => AuditEntryInput,
): Promise<Organization | undefined> {
  for (let attempt = 1; ; attempt++) {
    const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.organization(orgId), ConsistentRead: true }));
    if (!out.Item) return undefined;
    const current = toOrganization(out.Item);
    if (current.plan === plan) return updateOrganization(orgId, { plan }, now);
    const cancelled = await transact([
      [
        "organization",
        {
          Update: {
            TableName: tableName(),
            Key: keys.organization(orgId),
            UpdateExpression: "SET #plan = :plan, updatedAt = :now",
            ConditionExpression: "attribute_exists(pk) AND #plan = :from",
            ExpressionAttributeNames: { "#plan": "plan" },
            ExpressionAttributeValues: { ":plan": plan, ":now": now, ":from": current.plan },
          },
        },
      ],
      ...auditNamed(audit(current)),
    ]);
    if (!cancelled) return { ...current, plan, updatedAt: now };
    if (!cancelled.refused("organization")) throw cancelled.error;
    if (attempt >= 3) return undefined;
  }
}
