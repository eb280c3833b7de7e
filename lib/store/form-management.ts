import { cancellationReasons, tableName } from "../aws/dynamodb";
import { allMatching, filteredPage } from "./filtered-query";
import { countOnSite, type Form, toForm } from "./forms";
import { keys } from "./keys";
import { updateIfUnchanged } from "./optimistic";
import { forEachPage } from "./pagination";
import { purgeJobItem } from "./purge-jobs";
import { GSI1 } from "./table-definition";
import { transactWithRetry } from "./transactions";

/**
 * Forms as the management API reads and changes them (lib/forms.ts): lists, counts, updates
 * and permanent deletion. Creation and intake's schema growth are in ./forms.ts.
 */

/** A site's forms in creation order, without forms being purged; archived or not, as asked. */
export const listSiteForms = (siteId: string, archived: boolean, limit: number, cursor?: string) =>
  filteredPage(
    {
      partition: keys.formIndexPartition(siteId),
      filter: {
        expression: archived
          ? "attribute_type(#deletedAt, :null) AND attribute_type(#archivedAt, :string)"
          : "attribute_type(#deletedAt, :null) AND attribute_type(#archivedAt, :null)",
        names: { "#deletedAt": "deletedAt", "#archivedAt": "archivedAt" },
        values: archived ? { ":null": "NULL", ":string": "S" } : { ":null": "NULL" },
      },
      map: toForm,
    },
    { limit, ...(cursor ? { cursor } : {}), maxExamined: 1000 },
  );

/** Every form of a site, in creation order, archived and purging ones included (erasure visits them all). */
export async function allSiteForms(siteId: string): Promise<Form[]> {
  const forms: Form[] = [];
  for await (const page of allMatching({ partition: keys.formIndexPartition(siteId), map: toForm })) forms.push(...page.items);
  return forms;
}

/**
 * Counts a form's submissions, spam apart, by reading its index partition with only `isSpam`
 * projected. Exact, but its cost grows with the form: about 0.5 RCU per 4 KB of submissions
 * read (docs/data-model.md, "Counting a form's submissions").
 */
export async function countFormSubmissions(formId: string): Promise<{ submissions: number; spam: number }> {
  let submissions = 0;
  let spam = 0;
  await forEachPage(
    {
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.submissionIndexPartition(formId) },
      ProjectionExpression: "isSpam",
    },
    (out) => {
      for (const item of out.Items ?? []) {
        if (item.isSpam === true) spam++;
        else submissions++;
      }
    },
  );
  return { submissions, spam };
}

export type FormChanges = Partial<Pick<Form, "name" | "fields" | "settings" | "status" | "archivedAt">>;

/**
 * Applies `changes` if the form still has the `updatedAt` the caller read (intake adding fields
 * to an auto-created form changes it too, so a schema edit never drops a field that arrived
 * meanwhile). "CONFLICT" when it changed, undefined when it is gone or being purged.
 */
export async function updateForm(current: Form, changes: FormChanges, updatedAt: string): Promise<Form | "CONFLICT" | undefined> {
  return updateIfUnchanged({
    key: keys.form(current.id),
    changes,
    expectedUpdatedAt: current.updatedAt,
    updatedAt,
    condition: {
      expression: "attribute_type(#deletedAt, :null)",
      names: { "#deletedAt": "deletedAt" },
      values: { ":null": "NULL" },
    },
    // A form being purged is gone for its editors too.
    isConflict: (old) => old.deletedAt === null,
    map: toForm,
  });
}

/**
 * Permanently deletes an archived form: hides it (`deletedAt`), writes its purge job (the
 * background purge of lib/purge.ts deletes its submissions, then the form) and unlinks the
 * webhooks that feed it, all in one transaction. "NOT_ARCHIVED" or "GONE" when the form's state
 * forbids it; "CONFLICT" when a webhook was relinked or deleted meanwhile.
 */
export async function deleteFormPermanently(
  form: Form,
  webhookIds: string[],
  now: string,
): Promise<"OK" | "NOT_ARCHIVED" | "GONE" | "CONFLICT"> {
  const TableName = tableName();
  try {
    await transactWithRetry({
      TransactItems: [
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
        ...webhookIds.map((webhookId) => ({
          Update: {
            TableName,
            Key: keys.webhook(webhookId),
            UpdateExpression: "SET formId = :none",
            ConditionExpression: "attribute_exists(pk) AND formId = :formId",
            ExpressionAttributeValues: { ":none": null, ":formId": form.id },
          },
        })),
        // A counted form takes its count off the site (the site exists while it has counted forms).
        ...(form.countedOnSite ? [countOnSite(form, -1)] : []),
      ],
    });
    return "OK";
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    if (reasons[0] === "ConditionalCheckFailed") {
      const old = (error as { CancellationReasons?: { Item?: Record<string, unknown> }[] }).CancellationReasons?.[0]?.Item;
      if (!old || old.deletedAt !== null) return "GONE";
      return "NOT_ARCHIVED";
    }
    if (reasons[1] === "ConditionalCheckFailed") return "GONE";
    return "CONFLICT";
  }
}
