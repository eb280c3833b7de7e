import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, cancelledItem, db } from "../aws/dynamodb";
import { AppError } from "../errors";

/** Transaction attempts when DynamoDB cancels one for a conflicting concurrent write. */
export const TRANSACTION_ATTEMPTS = 5;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One action of a TransactWriteItems call (Put, Update, Delete or ConditionCheck). */
export type TransactItem = NonNullable<TransactWriteCommandInput["TransactItems"]>[number];

/**
 * True when a transaction was cancelled only because another request wrote one of its items at
 * the same time (reason `TransactionConflict`): retrying is safe, its conditions are re-checked.
 * DynamoDB does not retry these itself, and the SDK's retry strategy does not either.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
 */
function isTransactionConflict(error: unknown): boolean {
  const reasons = cancellationReasons(error);
  return reasons?.includes("TransactionConflict") === true && !reasons.includes("ConditionalCheckFailed");
}

/**
 * Sends a transaction, retrying conflicts with full-jitter backoff (25, 50, 100, 200 ms caps, and
 * doubling up to 1 s for a caller that allows more `attempts`): e.g. 30 concurrent API key
 * creations in one organization all update its META item. Conflicts that outlast the attempts
 * become 409 CONFLICT; any other failure is the caller's to translate (`transact` reads it by name).
 */
export async function transactWithRetry(input: TransactWriteCommandInput, attempts = TRANSACTION_ATTEMPTS): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= attempts) {
        throw new AppError("CONFLICT", "Too many concurrent changes to the same data; retry");
      }
      await sleep(Math.random() * Math.min(1000, 25 * 2 ** (attempt - 1)));
    }
  }
}

/**
 * A transaction's item under the name its caller reads the outcome by. Several items may share a
 * name (a form's webhooks to unlink): the name is refused when any of them is.
 */
export type Named<N extends string> = readonly [name: N, item: TransactItem];

/**
 * A transaction that a condition refused, read by the names its items were given, never by
 * their position (items are added conditionally, so positions shift). `error` is DynamoDB's own,
 * for a caller that has no outcome for what it found and rethrows it.
 */
export interface Cancellation<N extends string> {
  /** Whether an item of that name was refused by its condition (`ConditionalCheckFailed`). */
  refused(name: N): boolean;
  /**
   * The item as an action of that name found it when refused (its
   * `ReturnValuesOnConditionCheckFailure: ALL_OLD`), unmarshalled; undefined when there was none.
   */
  found(name: N): Record<string, unknown> | undefined;
  readonly error: unknown;
}

/**
 * Sends a transaction of named items, conflicts retried as `transactWithRetry` does (`attempts`
 * times): undefined once written, or its cancellation when a condition refused one of its items.
 * Any other failure (a cancellation that no condition caused included) is thrown.
 */
export async function transact<N extends string>(
  items: readonly Named<N>[],
  attempts = TRANSACTION_ATTEMPTS,
): Promise<Cancellation<N> | undefined> {
  try {
    await transactWithRetry({ TransactItems: items.map(([, item]) => item) }, attempts);
    return undefined;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons?.includes("ConditionalCheckFailed")) throw error;
    // DynamoDB answers one reason per item, in item order: the only place positions are read.
    const refused = items.flatMap(([name], at) => (reasons.at(at) === "ConditionalCheckFailed" ? [{ name, at }] : []));
    return {
      refused: (name) => refused.some((r) => r.name === name),
      found: (name) => {
        const first = refused.find((r) => r.name === name);
        return first && cancelledItem(error, first.at);
      },
      error,
    };
  }
}
