import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { type TableGrant, writeAllowed } from "../table-grants";

/**
 * The table grants of infra/table-grants.ts, enforced on this machine. DynamoDB Local does not
 * evaluate IAM, so a grant too narrow for what a function really does would only fail in AWS.
 * Here every DynamoDB call a handler or the consumer makes through lib's client is checked
 * against the grant its route entry declares, the way IAM would judge it: a write (PutItem,
 * UpdateItem, DeleteItem, BatchWriteItem, each item of TransactWriteItems) to a partition the
 * grant does not name fails with AccessDeniedException. The test stack runs with it on, so every
 * HTTP and pipeline test also proves the grants suffice for the paths it takes.
 *
 * `INLET_GRANTS=enforce` turns it on; `INLET_GRANTS=record:<file>` only appends each write
 * (function, operation, partition prefix) to the file, to see what a function does.
 */

interface Invocation {
  name: string;
  grant: TableGrant;
}

const current = new AsyncLocalStorage<Invocation>();

/** Runs `fn` (one handler invocation) as the function `name` with `grant`. */
export function runAs<T>(name: string, grant: TableGrant, fn: () => T): T {
  return current.run({ name, grant }, fn);
}

type KeyValue = string | { S?: string } | undefined;
const text = (value: unknown): string | undefined => {
  const v = value as KeyValue;
  return typeof v === "string" ? v : v?.S;
};

type Keyed = { pk?: unknown } | undefined;
/** The parts of a write command's input that name items (document-client or marshalled form). */
interface WriteInput {
  Item?: Keyed;
  Key?: Keyed;
  RequestItems?: Record<string, { PutRequest?: { Item?: Keyed }; DeleteRequest?: { Key?: Keyed } }[]>;
  TransactItems?: {
    Put?: { Item?: Keyed };
    Update?: { Key?: Keyed };
    Delete?: { Key?: Keyed };
    ConditionCheck?: { Key?: Keyed };
  }[];
}

/** Every (operation, partition key) a command writes, as IAM authorizes them one by one. */
function writesOf(command: string, input: WriteInput): [string, string | undefined][] {
  switch (command) {
    case "PutItemCommand":
    case "PutCommand":
      return [["PutItem", text(input.Item?.pk)]];
    case "UpdateItemCommand":
    case "UpdateCommand":
      return [["UpdateItem", text(input.Key?.pk)]];
    case "DeleteItemCommand":
    case "DeleteCommand":
      return [["DeleteItem", text(input.Key?.pk)]];
    case "BatchWriteItemCommand":
    case "BatchWriteCommand":
      return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
        requests.map((r): [string, string | undefined] => [
          "BatchWriteItem",
          text(r.PutRequest ? r.PutRequest.Item?.pk : r.DeleteRequest?.Key?.pk),
        ]),
      );
    case "TransactWriteItemsCommand":
    case "TransactWriteCommand":
      return (input.TransactItems ?? []).map((t): [string, string | undefined] => {
        if (t.Put) return ["PutItem", text(t.Put.Item?.pk)];
        if (t.Update) return ["UpdateItem", text(t.Update.Key?.pk)];
        if (t.Delete) return ["DeleteItem", text(t.Delete.Key?.pk)];
        return ["ConditionCheckItem", text(t.ConditionCheck?.Key?.pk)];
      });
    default:
      return [];
  }
}

const prefixOf = (pk: string | undefined) => (pk === undefined ? "?" : pk.slice(0, pk.indexOf("#") + 1) || pk);

/** Installs the check on lib's document client (once per process). */
export function guardTableGrants(client: DynamoDBDocumentClient, mode: string | undefined): void {
  if (!mode) return;
  const recordFile = mode.startsWith("record:") ? mode.slice("record:".length) : undefined;
  if (mode !== "enforce" && !recordFile) throw new Error(`INLET_GRANTS must be "enforce" or "record:<file>", not ${mode}`);
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const invocation = current.getStore();
      if (invocation) {
        const command = (context as { commandName?: string }).commandName ?? "";
        for (const [operation, pk] of writesOf(command, args.input as WriteInput)) {
          if (recordFile) {
            appendFileSync(recordFile, `${JSON.stringify({ fn: invocation.name, operation, prefix: prefixOf(pk) })}\n`);
          } else if (operation !== "ConditionCheckItem" && !writeAllowed(invocation.grant, operation, pk)) {
            const message = `${invocation.name} is not granted dynamodb:${operation} on partition ${prefixOf(pk)}* (infra/table-grants.ts)`;
            console.error(JSON.stringify({ level: "error", message: "table grant refused a write", detail: message }));
            throw Object.assign(new Error(`User is not authorized to perform: ${message}`), { name: "AccessDeniedException" });
          }
        }
      }
      return next(args);
    },
    { step: "initialize", name: "inletTableGrantGuard", priority: "high" },
  );
}
