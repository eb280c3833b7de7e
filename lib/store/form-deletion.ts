import { tableName } from "../aws/dynamodb";
import { type AuditEntryInput, auditNamed } from "./audit-log";
import { countOnSite, type Form } from "./forms";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { purgeJobItem } from "./purge-jobs";
import { transact } from "./transactions";

/**
 * Permanently deletes an archived form: hides it (`deletedAt`), writes its purge job (the
 * background purge of lib/purge.ts deletes its submissions, then the form) and unlinks the
 * webhooks that feed it, all in one transaction. "NOT_ARCHIVED" or "NOT_FOUND" when the form's
 * state forbids it (a purge job already written means it is being purged); "CONFLICT" when a
 * webhook was relinked or deleted meanwhile.
 */
export async function deleteFormPermanently(
  form: Form,
  webhookIds: string[],
  now: string,
  audit?: AuditEntryInput,
): Promise<Outcome<"OK" | "NOT_ARCHIVED" | "NOT_FOUND" | "CONFLICT">> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "form",
      {
        Update: {
          TableName,
          Key: keys.form(form.id),
          UpdateExpression: "SET deletedAt = :now",
          ConditionExpression:
            "attribute_exists(pk) AND orgId = :org AND attribute_type(deletedAt, :null) AND attribute_type(archivedAt, :string)",
          ExpressionAttributeValues: { ":now": now, ":org": form.orgId, ":null": "NULL", ":string": "S" },
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        },
      },
    ],
    [
      "job",
      {
        Put: {
          TableName,
          Item: purgeJobItem({
            formId: form.id,
            orgId: form.orgId,
            siteId: form.siteId,
            reason: `form ${form.id} permanently deleted`,
            now,
          }),
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ],
    ...webhookIds.map(
      (webhookId) =>
        [
          "webhook",
          {
            Update: {
              TableName,
              Key: keys.webhook(webhookId),
              UpdateExpression: "SET formId = :none",
              ConditionExpression: "attribute_exists(pk) AND formId = :formId",
              ExpressionAttributeValues: { ":none": null, ":formId": form.id },
            },
          },
        ] as const,
    ),
    // A counted form takes its count off the site (the site exists while it has counted forms).
    ...(form.countedOnSite ? [["site", countOnSite(form, -1)] as const] : []),
    ...auditNamed(audit),
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("form")) {
    const old = cancelled.found("form");
    return !old || old.deletedAt !== null ? "NOT_FOUND" : "NOT_ARCHIVED";
  }
  if (cancelled.refused("job")) return "NOT_FOUND";
  return "CONFLICT";
}
