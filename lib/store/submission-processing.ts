import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db, isConditionFailure, tableName } from "../aws/dynamodb";
import { keys } from "./keys";
import type { Lead } from "./shapes";
import { transactWithRetry } from "./transactions";

/**
 * The intake consumer's writes to a submission it processes (lib/pipeline/process-submission.ts).
 * The moderator's side of a release (the marker put with the unflag) is setSpamState in
 * lib/store/submissions.ts.
 */

/**
 * Stores a submission's lead once: `if_not_exists` keeps the first result, so a redelivered
 * message (or a release racing the insert) never changes a lead already shown or sent. A lead is
 * first stored only while the submission is not spam; from then on the pipeline owns the
 * submission and finishes it whatever its later spam state. Answers the stored lead, or why
 * there is none: the submission is gone, or it is spam and was never taken up.
 */
export async function storeLeadOnce(submissionId: string, lead: Lead): Promise<Lead | "GONE" | "SPAM"> {
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.submission(submissionId),
        UpdateExpression: "SET #lead = if_not_exists(#lead, :lead)",
        ConditionExpression: "attribute_exists(pk) AND (attribute_exists(#lead) OR isSpam = :false)",
        ExpressionAttributeNames: { "#lead": "lead" },
        ExpressionAttributeValues: { ":lead": lead, ":false": false },
        ReturnValues: "UPDATED_NEW",
        ReturnValuesOnConditionCheckFailure: "ALL_OLD",
      }),
    );
    return out.Attributes?.lead as Lead;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return (error as { Item?: unknown }).Item ? "SPAM" : "GONE";
  }
}

/**
 * Called by the intake consumer when a release reaches it but the submission was flagged as
 * spam again meanwhile: deletes the marker, only while the submission still is spam and still
 * unprocessed, so the next unflag inserts it again (and so enters the pipeline). False when the
 * submission was unflagged (or taken up) in between: the caller reads it again and processes it.
 */
export async function withdrawRelease(submissionId: string): Promise<boolean> {
  const TableName = tableName();
  try {
    await transactWithRetry({
      TransactItems: [
        {
          ConditionCheck: {
            TableName,
            Key: keys.submission(submissionId),
            ConditionExpression: "isSpam = :true AND attribute_not_exists(#lead)",
            ExpressionAttributeNames: { "#lead": "lead" },
            ExpressionAttributeValues: { ":true": true },
          },
        },
        { Delete: { TableName, Key: keys.release(submissionId) } },
      ],
    });
    return true;
  } catch (error) {
    if (cancellationReasons(error)?.[0] === "ConditionalCheckFailed") return false;
    throw error;
  }
}
