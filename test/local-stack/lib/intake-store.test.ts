import { GetCommand, PutCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, jest } from "@jest/globals";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { AppError } from "../../../lib/errors";
import { newId, sha256Hex } from "../../../lib/ids";
import { type IntakeRequest, receiveSubmission } from "../../../lib/intake/intake";
import { type IntakeResult, type Marker, storeSubmission } from "../../../lib/store/intake-markers";
import { keys } from "../../../lib/store/keys";
import type { Submission } from "../../../lib/store/submissions";
import { TRANSACTION_ATTEMPTS } from "../../../lib/store/transactions";
import { type Account, signupOwner } from "../../support/api";
import { receivedSettles } from "../../support/bookkeeping";
import { formSubmissions, type IntakeTarget, intakeTarget, webhookItem } from "../../support/intake";

/**
 * Faults DynamoDB Local cannot produce, injected into the process's client: a transaction
 * cancelled for a TransactionConflict (the real service cancels transactions that meet a
 * concurrent write of one of their items; DynamoDB Local serializes them instead), and writes
 * that fail outright. Everything not faulted reaches DynamoDB Local.
 */
type Send = (command: unknown) => Promise<unknown>;

function transactionConflict(items: number, conflictAt = 1): Error {
  return Object.assign(new Error("Transaction cancelled, please refer cancellation reasons for specific reasons"), {
    name: "TransactionCanceledException",
    CancellationReasons: Array.from({ length: items }, (_, i) =>
      i === conflictAt ? { Code: "TransactionConflict", Message: "Transaction is ongoing for the item" } : { Code: "None" },
    ),
  });
}

function injectFaults(fault: (command: unknown, real: Send) => Promise<void> | void) {
  const client = db();
  const real = client.send.bind(client) as Send;
  return jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
    await fault(command, real);
    return real(command);
  }) as never);
}

const transactions = (send: ReturnType<typeof injectFaults>) =>
  send.mock.calls.filter(([c]) => c instanceof TransactWriteCommand);

afterEach(() => {
  jest.restoreAllMocks();
});

let owner: Account;
beforeAll(async () => {
  owner = await signupOwner("intake-store");
});

function submission(formId: string, webhookId = newId("webhook")): Submission {
  const id = newId("submission");
  return {
    id,
    orgId: owner.orgId,
    siteId: newId("site"),
    formId,
    webhookId,
    referenceId: `TEST-${id.slice(-6)}`,
    data: { email: "ada@example.com" },
    metadata: { source: "generic", userAgent: null, referer: null, ip: "10.0.0.1", droppedFiles: [], ignoredFields: [] },
    spam: { score: 0, isSpam: false, signals: [] },
    createdAt: new Date().toISOString(),
  };
}

const resultOf = (s: Submission): IntakeResult => ({ submissionId: s.id, referenceId: s.referenceId, fieldsMapped: ["email"] });
const marker = (label: string): Marker => ({
  key: keys.idempotency(newId("webhook"), sha256Hex(label)),
  ttl: Math.floor(Date.now() / 1000) + 3600,
});

async function readItem(key: { pk: string; sk: string }) {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
}

describe("storeSubmission with markers, under TransactionConflict", () => {
  test("a transaction cancelled for a conflict is retried and stores the submission once", async () => {
    const s = submission(newId("form"));
    const m = marker("conflict-retry");
    let conflicts = 0;
    const send = injectFaults((command) => {
      if (command instanceof TransactWriteCommand && conflicts < 2) {
        conflicts++;
        throw transactionConflict(2);
      }
    });
    await expect(storeSubmission(s, resultOf(s), [m])).resolves.toEqual({ stored: true });
    expect(transactions(send)).toHaveLength(3);
    jest.restoreAllMocks();
    expect((await readItem(keys.submission(s.id)))?.id).toBe(s.id);
    expect((await readItem(m.key))?.result).toEqual(resultOf(s));
    expect(await formSubmissions(s.formId)).toHaveLength(1);
  });

  test("a conflict with a concurrent repeat that wins: the retry finds its marker and stores nothing", async () => {
    const mine = submission(newId("form"));
    const theirs = submission(mine.formId);
    const m = marker("conflict-lost");
    let first = true;
    const send = injectFaults(async (command, real) => {
      if (command instanceof TransactWriteCommand && first) {
        first = false;
        // The other request's transaction commits while ours is cancelled for the conflict.
        await real(
          new PutCommand({ TableName: tableName(), Item: { ...m.key, type: "marker", result: resultOf(theirs), ttl: m.ttl } }),
        );
        throw transactionConflict(2);
      }
    });
    await expect(storeSubmission(mine, resultOf(mine), [m])).resolves.toEqual({
      stored: false,
      first: { result: resultOf(theirs) },
      marker: m,
    });
    expect(transactions(send)).toHaveLength(2);
    jest.restoreAllMocks();
    expect(await readItem(keys.submission(mine.id))).toBeUndefined();
  });

  test("conflicts that outlast the retries fail with CONFLICT, and nothing is written", async () => {
    const s = submission(newId("form"));
    const m = marker("conflict-forever");
    const send = injectFaults((command) => {
      if (command instanceof TransactWriteCommand) throw transactionConflict(2);
    });
    await expect(storeSubmission(s, resultOf(s), [m])).rejects.toMatchObject({ code: "CONFLICT" });
    expect(transactions(send)).toHaveLength(TRANSACTION_ATTEMPTS);
    jest.restoreAllMocks();
    expect(await readItem(keys.submission(s.id))).toBeUndefined();
    expect(await readItem(m.key)).toBeUndefined();
  });

  test("an expired marker that DynamoDB has not deleted yet is overwritten, not answered", async () => {
    const old = submission(newId("form"));
    const fresh = submission(old.formId);
    const m = marker("expired");
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...m.key, type: "marker", result: resultOf(old), ttl: Math.floor(Date.now() / 1000) - 10 },
      }),
    );
    await expect(storeSubmission(fresh, resultOf(fresh), [m])).resolves.toEqual({ stored: true });
    expect((await readItem(m.key))?.result).toEqual(resultOf(fresh));
  });
});

describe("receiveSubmission under injected faults", () => {
  let t: IntakeTarget;
  beforeEach(async () => {
    t = await intakeTarget("faults", { name: "Faulty" }, owner);
  });

  const request = (body: Record<string, unknown>, headers: Record<string, string> = {}): IntakeRequest => ({
    webhookId: t.webhook.id,
    query: { key: t.webhook.secretKey },
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    sourceIp: "10.1.2.3",
  });

  test("the first submission's form transaction meets a conflict (the webhook item is hot): retried, one form", async () => {
    let conflicted = false;
    const send = injectFaults((command) => {
      if (command instanceof TransactWriteCommand && !conflicted) {
        conflicted = true;
        throw transactionConflict(2, 1);
      }
    });
    const outcome = await receiveSubmission(request({ email: "a@example.com" }));
    expect(outcome.stored).toBe(true);
    expect(transactions(send)).toHaveLength(2);
    jest.restoreAllMocks();
    const webhook = await webhookItem(t.webhook.id);
    expect(webhook?.formId).toEqual(expect.any(String));
    expect((await formSubmissions(webhook?.formId)).map((s) => s.id)).toEqual([outcome.result.submissionId]);
    await receivedSettles(t.webhook.id, 1);
  });

  test("an Idempotency-Key submission whose transaction keeps conflicting answers 503 (retry), never 409", async () => {
    await receiveSubmission(request({ email: "warm@example.com" }));
    injectFaults((command) => {
      if (command instanceof TransactWriteCommand) throw transactionConflict(2);
    });
    const failure = await receiveSubmission(request({ email: "a@example.com" }, { "idempotency-key": "k-503" })).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, headers: { "retry-after": "1" } });
    jest.restoreAllMocks();
    await receivedSettles(t.webhook.id, 1);
    // The retry the 503 asks for goes through, once.
    const retried = await receiveSubmission(request({ email: "a@example.com" }, { "idempotency-key": "k-503" }));
    expect(retried.stored).toBe(true);
    expect((await receiveSubmission(request({ email: "a@example.com" }, { "idempotency-key": "k-503" }))).result).toEqual(
      retried.result,
    );
    await receivedSettles(t.webhook.id, 2);
  });

  test("when the submission's write fails, nothing is counted and the retry stores it once", async () => {
    await receiveSubmission(request({ email: "warm@example.com" }));
    injectFaults((command) => {
      if (command instanceof PutCommand && (command.input.Item as { type?: string } | undefined)?.type === "submission") {
        throw Object.assign(new Error("Throughput exceeds the current capacity"), {
          name: "ProvisionedThroughputExceededException",
        });
      }
    });
    await expect(receiveSubmission(request({ email: "b@example.com" }))).rejects.toMatchObject({
      name: "ProvisionedThroughputExceededException",
    });
    jest.restoreAllMocks();
    const webhook = await webhookItem(t.webhook.id);
    await receivedSettles(t.webhook.id, 1);
    expect(await formSubmissions(webhook?.formId)).toHaveLength(1);
    await receiveSubmission(request({ email: "b@example.com" }));
    await receivedSettles(t.webhook.id, 2);
  });

  test("a form read that misses a just-linked form is confirmed strongly before anything is replaced", async () => {
    const first = await receiveSubmission(request({ email: "first@example.com" }));
    const formId = (await webhookItem(t.webhook.id))?.formId;
    // The eventually consistent read of the form comes back empty (as it may right after creation).
    const client = db();
    const real = client.send.bind(client) as Send;
    const staleReads = jest.fn();
    jest.spyOn(client, "send").mockImplementation((async (command: unknown) => {
      if (
        command instanceof GetCommand &&
        !command.input.ConsistentRead &&
        (command.input.Key as { pk: string }).pk === keys.form(formId).pk
      ) {
        staleReads();
        return { Item: undefined };
      }
      return real(command);
    }) as never);
    const second = await receiveSubmission(request({ email: "second@example.com" }));
    jest.restoreAllMocks();
    expect(staleReads).toHaveBeenCalledTimes(1);
    expect((await webhookItem(t.webhook.id))?.formId).toBe(formId);
    expect((await formSubmissions(formId)).map((s) => s.id).sort()).toEqual(
      [first.result.submissionId, second.result.submissionId].sort(),
    );
  });
});

describe("a form's schema at DynamoDB's item size limit", () => {
  test("new fields that would take the form past 400 KB are not added, and nothing is thrown", async () => {
    const { addFormFields } = await import("../../../lib/store/form-fields");
    const formId = newId("form");
    // A form item of about 390 KB, as concurrent additions that each fit the budget could leave it.
    const big = Object.fromEntries(
      Array.from({ length: 39 }, (_, i) => [`f${i}`, { label: "x".repeat(10_000), type: "text", required: false, order: i }]),
    );
    await db().send(
      new PutCommand({ TableName: tableName(), Item: { ...keys.form(formId), type: "form", id: formId, fields: big } }),
    );
    const more = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [
        `g${i}`,
        { label: "y".repeat(5_000), type: "text" as const, required: false, order: 40 + i },
      ]),
    );
    await expect(addFormFields(formId, more, new Date().toISOString())).resolves.toBeUndefined();
    const item = (await db().send(new GetCommand({ TableName: tableName(), Key: keys.form(formId) }))).Item;
    expect(Object.keys(item?.fields ?? {})).toHaveLength(39);
  });
});
