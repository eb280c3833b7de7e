import { randomUUID } from "node:crypto";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { SQSRecord } from "aws-lambda";
import { db, tableName } from "../../../../lib/aws/dynamodb";
import { newId } from "../../../../lib/ids";
import type { Form } from "../../../../lib/store/forms";
import { keys } from "../../../../lib/store/keys";
import { type Submission, submissionItem } from "../../../../lib/store/submissions";
import type { Account } from "../../../support/api";
import { insertForm } from "../../../support/fixtures";
import { makeSubmission } from "../../../support/submissions";
import { FIELDS } from "./emails";
import { sqsRecord, streamRecord } from "./records";

/**
 * Submissions for tests that run the consumer in their own process: stored in the test stack's
 * table so the consumer reads them as usual, but written so that no write passes the intake
 * filters (inserted as spam, then cleared with a MODIFY), so the stack's own pipeline never
 * picks them up. The test then hands the consumer the INSERT record the pipe would have sent.
 */
export async function hiddenForm(notifyEmails: string[]): Promise<Form> {
  const account = { orgId: newId("organization") } as Account;
  const fields = Object.fromEntries(
    FIELDS.map((f, i) => [
      f.key,
      { label: f.label, type: f.type as Form["fields"][string]["type"], required: false, order: i + 1 },
    ]),
  );
  // Siteless (no stack route reaches it): written as a form not counted on a site.
  return insertForm(account, newId("site"), { name: "Hidden form", fields, settings: { notifyEmails } }, { uncounted: true });
}

export async function hiddenSubmission(
  form: Form,
  data: Record<string, string>,
  overrides: Partial<Submission> = {},
): Promise<{ submission: Submission; record: SQSRecord }> {
  const submission = makeSubmission(form, {
    data,
    referenceId: `HID-${randomUUID().slice(0, 8)}`,
    spam: { score: 5, isSpam: false, signals: [] },
    ...overrides,
  });
  const item = submissionItem(submission);
  await db().send(new PutCommand({ TableName: tableName(), Item: { ...item, isSpam: true } }));
  await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.submission(submission.id),
      UpdateExpression: "SET isSpam = :false",
      ExpressionAttributeValues: { ":false": false },
    }),
  );
  return { submission, record: sqsRecord(JSON.stringify(streamRecord("INSERT", item))) };
}

/** The same message delivered again (SQS gives it a new receipt handle and a higher receive count). */
export function redelivered(record: SQSRecord, receiveCount = 2): SQSRecord {
  return {
    ...record,
    receiptHandle: `AQEB${randomUUID().replaceAll("-", "")}`,
    attributes: { ...record.attributes, ApproximateReceiveCount: String(receiveCount) },
  };
}
