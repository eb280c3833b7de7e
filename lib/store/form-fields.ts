import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { log } from "../log";
import type { FormField } from "./forms";
import { keys } from "./keys";

/** A form's schema growing as intake meets new fields (lib/intake/intake.ts). */

/**
 * DynamoDB refuses an update expression longer than 4 KB (a ValidationException). One field's
 * clause is about 40 characters, so a submission bringing ~90 new fields at once would not fit:
 * the fields are written in chunks whose expression stays under this budget.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html#limits-expression-parameters
 */
const MAX_EXPRESSION_CHARS = 3_500;

/**
 * Adds fields to a form's schema without losing concurrent additions: each field is set only
 * if absent (`if_not_exists`), so two submissions adding different fields both land, and a
 * field a user has edited meanwhile is never overwritten. Many fields are split into updates of
 * at most MAX_EXPRESSION_CHARS each, sent side by side: each is atomic on its own fields, and
 * together they are one round trip of latency.
 */
export async function addFormFields(formId: string, fields: Record<string, FormField>, now: string): Promise<void> {
  const chunks: [string, FormField][][] = [];
  let chars = 0;
  Object.entries(fields).forEach((entry, i) => {
    const clause = `#F.#f${i} = if_not_exists(#F.#f${i}, :f${i}), `.length;
    if (chunks.length === 0 || chars + clause > MAX_EXPRESSION_CHARS) {
      chunks.push([]);
      chars = "SET updatedAt = :now".length;
    }
    chunks.at(-1)?.push(entry);
    chars += clause;
  });
  await Promise.all(chunks.map((chunk) => setFieldsIfAbsent(formId, chunk, now)));
}

async function setFieldsIfAbsent(formId: string, entries: [string, FormField][], now: string): Promise<void> {
  const names: Record<string, string> = { "#F": "fields" };
  const values: Record<string, unknown> = { ":now": now };
  const sets = entries.map(([key, field], i) => {
    names[`#f${i}`] = key;
    values[`:f${i}`] = field;
    return `#F.#f${i} = if_not_exists(#F.#f${i}, :f${i})`;
  });
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.form(formId),
        UpdateExpression: `SET ${sets.join(", ")}, updatedAt = :now`,
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  } catch (error) {
    // A form deleted meanwhile keeps no schema; the submission itself is stored regardless.
    if (isConditionFailure(error)) return;
    // Concurrent additions that each fit (lib/intake/mapping.ts keeps a schema under 256 KB) could
    // together take the item past 400 KB: the form then stops growing, as at its field limit, and
    // the submission is still stored with every key.
    if (isItemTooLarge(error)) {
      log.warn("form schema full: new fields not added", { formId, fields: entries.length });
      return;
    }
    throw error;
  }
}

const isItemTooLarge = (error: unknown) =>
  (error as { name?: string } | null)?.name === "ValidationException" &&
  /item size/i.test((error as { message?: string }).message ?? "");
