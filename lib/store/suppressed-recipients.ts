import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import type { SuppressedRecipient } from "./forms";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";

/**
 * Records on a form that SES suppresses one of its notification addresses (the form item's
 * `suppressedRecipients` map, docs/data-model.md): only while the form exists, is not being
 * purged, and still notifies that address. One conditional update; a second one only for the
 * form's first entry, when the map does not exist yet (DynamoDB cannot set a path inside a map
 * that is absent). "NOT_NOTIFIED" when a condition does not hold.
 */
export async function recordSuppressedRecipient(
  formId: string,
  address: string,
  entry: SuppressedRecipient,
): Promise<Outcome<"OK" | "NOT_NOTIFIED">> {
  const base = {
    TableName: tableName(),
    Key: keys.form(formId),
    ExpressionAttributeNames: { "#deletedAt": "deletedAt" },
  };
  // A form's deletedAt is null until it is purged.
  const notified =
    "attribute_exists(pk) AND (attribute_not_exists(#deletedAt) OR #deletedAt = :null) AND contains(settings.notifyEmails, :address)";
  // Two rounds: the map may be created by a concurrent first entry between them.
  for (let round = 0; round < 2; round++) {
    try {
      await db().send(
        new UpdateCommand({
          ...base,
          UpdateExpression: "SET suppressedRecipients.#recipient = :entry",
          ConditionExpression: `${notified} AND attribute_exists(suppressedRecipients)`,
          ExpressionAttributeNames: { ...base.ExpressionAttributeNames, "#recipient": address },
          ExpressionAttributeValues: { ":entry": entry, ":address": address, ":null": null },
        }),
      );
      return "OK";
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    try {
      await db().send(
        new UpdateCommand({
          ...base,
          UpdateExpression: "SET suppressedRecipients = :map",
          ConditionExpression: `${notified} AND attribute_not_exists(suppressedRecipients)`,
          ExpressionAttributeValues: { ":map": { [address]: entry }, ":address": address, ":null": null },
        }),
      );
      return "OK";
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
  return "NOT_NOTIFIED";
}

/**
 * Lifts a notification address's suppression on its form (a person fixed the mailbox): removes
 * its entry from the map. "NOT_FOUND" when the form is gone or being purged, or holds no entry
 * for the address (removed meanwhile).
 */
export async function removeSuppressedRecipient(formId: string, address: string): Promise<Outcome<"OK" | "NOT_FOUND">> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.form(formId),
        UpdateExpression: "REMOVE suppressedRecipients.#recipient",
        // A form's deletedAt is null until it is purged.
        ConditionExpression:
          "attribute_exists(suppressedRecipients.#recipient) AND (attribute_not_exists(#deletedAt) OR #deletedAt = :null)",
        ExpressionAttributeNames: { "#recipient": address, "#deletedAt": "deletedAt" },
        ExpressionAttributeValues: { ":null": null },
      }),
    );
    return "OK";
  } catch (error) {
    if (isConditionFailure(error)) return "NOT_FOUND";
    throw error;
  }
}
