import { TransactWriteCommand, type TransactWriteCommandInput } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons, db } from "../aws/dynamodb";
import { AppError } from "../errors";

/** Transaction attempts when DynamoDB cancels one for a conflicting concurrent write. */
export const TRANSACTION_ATTEMPTS = 5;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * True when a transaction was cancelled only because another request wrote one of its items at
 * the same time (reason `TransactionConflict`): retrying is safe, its conditions are re-checked.
 * DynamoDB does not retry these itself, and the SDK's retry strategy does not either.
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-conflict-handling
 */
export function isTransactionConflict(error: unknown): boolean {
  const reasons = cancellationReasons(error);
  return reasons?.includes("TransactionConflict") === true && !reasons.includes("ConditionalCheckFailed");
}

/**
 * Sends a transaction, retrying conflicts with full-jitter backoff (25, 50, 100, 200 ms caps):
 * e.g. 30 concurrent API key creations in one organization all update its META item.
 * Conflicts that outlast the attempts become 409 CONFLICT; any other failure is the caller's
 * to translate.
 */
export async function transactWithRetry(input: TransactWriteCommandInput): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db().send(new TransactWriteCommand(input));
      return;
    } catch (error) {
      if (!isTransactionConflict(error)) throw error;
      if (attempt >= TRANSACTION_ATTEMPTS) {
        throw new AppError("CONFLICT", "Too many concurrent changes to the same data; retry");
      }
      await sleep(Math.random() * 25 * 2 ** (attempt - 1));
    }
  }
}

/**
 * Sends a transaction as `transactWithRetry` does; answers undefined once it is written, or the
 * cancellation reasons (one per item, in order) when a condition refused it, for the caller to
 * name. Any other failure is thrown.
 */
export async function transactOrReasons(input: TransactWriteCommandInput): Promise<string[] | undefined> {
  try {
    await transactWithRetry(input);
    return undefined;
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) throw error;
    return reasons;
  }
}
