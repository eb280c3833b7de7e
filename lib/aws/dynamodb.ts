import { type AttributeValue, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import { loadConfig } from "../config";
import { countDynamoCall } from "./call-count";
import { traceClient } from "./tracing";

let client: DynamoDBDocumentClient | undefined;

/** The process's document client, built once from config (module scope, reused across invocations). */
export function db(): DynamoDBDocumentClient {
  if (!client) {
    const config = loadConfig();
    const base = new DynamoDBClient({
      region: config.AWS_REGION,
      ...(config.DYNAMODB_ENDPOINT ? { endpoint: config.DYNAMODB_ENDPOINT } : {}),
    });
    // Counts each call for the invocation's "request done" line (docs/metrics.md). The
    // initialize step runs once per send, before the SDK's retries, so a retried call counts once;
    // the document client shares this middleware stack.
    base.middlewareStack.add(
      (next) => (args) => {
        countDynamoCall();
        return next(args);
      },
      { step: "initialize", name: "inletCountDynamoCalls" },
    );
    client = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true },
    });
    traceClient(base, client, config.TRACING === "on");
  }
  return client;
}

/** Replace the client (bench and tests wrap it with a recording middleware). */
export function setDb(next: DynamoDBDocumentClient): void {
  client = next;
}

export const tableName = () => loadConfig().TABLE_NAME;

/** True when a write failed only because its condition did not hold. */
export function isConditionFailure(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  return name === "ConditionalCheckFailedException";
}

/**
 * The item a failed conditional write found (its ReturnValuesOnConditionCheckFailure ALL_OLD),
 * unmarshalled; undefined when there was none.
 */
export function conditionFailedItem(error: unknown): Record<string, unknown> | undefined {
  const item = (error as { Item?: Record<string, AttributeValue> } | null)?.Item;
  return item ? unmarshall(item) : undefined;
}

/**
 * The item the `index`th action of a cancelled transaction found (its
 * ReturnValuesOnConditionCheckFailure ALL_OLD), unmarshalled: the document client leaves an
 * error's payload as AttributeValues. Undefined when there was no item.
 */
export function cancelledItem(error: unknown, index: number): Record<string, unknown> | undefined {
  const item = (error as { CancellationReasons?: { Item?: Record<string, AttributeValue> }[] } | null)?.CancellationReasons?.[
    index
  ]?.Item;
  return item ? unmarshall(item) : undefined;
}

/** The cancellation reason codes of a failed transaction, in item order ("None" where fine). */
export function cancellationReasons(error: unknown): string[] | undefined {
  const e = error as { name?: string; CancellationReasons?: { Code?: string }[] } | null;
  if (e?.name !== "TransactionCanceledException") return undefined;
  return (e.CancellationReasons ?? []).map((r) => r.Code ?? "None");
}
