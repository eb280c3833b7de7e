import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { RouteDef } from "../../functions/routes";
import { firstAccountRule, parseSettings } from "../../lib/config";
import { grantOf, type TableGrant, writeAllowed } from "../table-grants";
import { type WriteParameters, writeAttributes } from "./request-attributes";

/**
 * The table grants of infra/table-grants.ts, enforced on this machine. DynamoDB Local does not
 * evaluate IAM, so a grant too narrow for what a function really does would only fail in AWS.
 * Here every DynamoDB call a handler or the consumer makes through lib's client is checked
 * against the grant its route entry declares, the way IAM would judge it: a write (PutItem,
 * UpdateItem, DeleteItem, BatchWriteItem, each item of TransactWriteItems) to a partition the
 * grant does not name, or naming an attribute its grant of that partition does not list (the
 * names of ./request-attributes.ts, as `dynamodb:Attributes` holds them), fails with
 * AccessDeniedException; in a transaction, one refused item refuses it whole. The test stack
 * runs with it on, so every HTTP and pipeline test also proves the grants suffice for the paths
 * it takes.
 *
 * `INLET_GRANTS=enforce` turns it on; `INLET_GRANTS=record:<file>` only appends each write
 * (function, operation, partition, kind of item, attribute names) to the file, to see what a
 * function does.
 */

interface Invocation {
  name: string;
  grant: TableGrant;
}

const current = new AsyncLocalStorage<Invocation>();

/**
 * A function's grant in this stack: its entry's, with signup's first-account claim when this
 * stack's settings run the rule (`npm start` does; the test stack names its admins, so it does not).
 */
export function localGrant(def: Pick<RouteDef, "handler" | "table"> & { auth?: RouteDef["auth"] }): TableGrant {
  const settings = parseSettings(["FIRST_ACCOUNT_ADMIN", "PLATFORM_ADMIN_EMAILS"], process.env);
  return grantOf(def, { firstAccountRule: firstAccountRule(settings) });
}

/** Runs `fn` (one handler invocation) as the function `name` with `grant`. */
export function runAs<T>(name: string, grant: TableGrant, fn: () => T): T {
  return current.run({ name, grant }, fn);
}

type KeyValue = string | { S?: string } | undefined;
const text = (value: unknown): string | undefined => {
  const v = value as KeyValue;
  return typeof v === "string" ? v : v?.S;
};

type Keyed = Record<string, unknown>;
/** The parts of a write command's input that name items (document-client or marshalled form). */
interface WriteInput extends WriteParameters {
  RequestItems?: Record<string, { PutRequest?: { Item?: Keyed }; DeleteRequest?: { Key?: Keyed } }[]>;
  TransactItems?: {
    Put?: WriteParameters;
    Update?: WriteParameters;
    Delete?: WriteParameters;
    ConditionCheck?: WriteParameters;
  }[];
}

/** One item a command writes, as IAM authorizes it: the action, the partition, the attributes named. */
interface ItemWrite {
  operation: string;
  pk: string | undefined;
  /** Only recorded: which kind of item of the partition it is. */
  sk: string | undefined;
  attributes: string[];
}

const itemWrite = (operation: string, write: WriteParameters): ItemWrite => ({
  operation,
  pk: text((write.Item ?? write.Key)?.pk),
  sk: text((write.Item ?? write.Key)?.sk),
  attributes: writeAttributes(write),
});

/** Every item a command writes, as IAM authorizes them one by one. */
function writesOf(command: string, input: WriteInput): ItemWrite[] {
  switch (command) {
    case "PutItemCommand":
    case "PutCommand":
      return [itemWrite("PutItem", input)];
    case "UpdateItemCommand":
    case "UpdateCommand":
      return [itemWrite("UpdateItem", input)];
    case "DeleteItemCommand":
    case "DeleteCommand":
      return [itemWrite("DeleteItem", input)];
    case "BatchWriteItemCommand":
    case "BatchWriteCommand":
      return Object.values(input.RequestItems ?? {}).flatMap((requests) =>
        requests.map((r) =>
          itemWrite("BatchWriteItem", r.PutRequest ? { Item: r.PutRequest.Item ?? {} } : { Key: r.DeleteRequest?.Key ?? {} }),
        ),
      );
    case "TransactWriteItemsCommand":
    case "TransactWriteCommand":
      return (input.TransactItems ?? []).map((t) => {
        if (t.Put) return itemWrite("PutItem", t.Put);
        if (t.Update) return itemWrite("UpdateItem", t.Update);
        if (t.Delete) return itemWrite("DeleteItem", t.Delete);
        return itemWrite("ConditionCheckItem", t.ConditionCheck ?? {});
      });
    default:
      return [];
  }
}

/** What the record names of an item: its partition without the last id (`COUNTER#login-ip#`), its kind (`USER#`, `META`). */
const recorded = (pk: string | undefined, sk: string | undefined) => ({
  partition: pk === undefined ? "?" : pk.slice(0, pk.lastIndexOf("#") + 1) || pk,
  kind: sk === undefined ? "?" : sk.slice(0, sk.indexOf("#") + 1) || sk,
});

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
        for (const { operation, pk, sk, attributes } of writesOf(command, args.input as WriteInput)) {
          if (recordFile) {
            appendFileSync(
              recordFile,
              `${JSON.stringify({ fn: invocation.name, operation, ...recorded(pk, sk), attributes })}\n`,
            );
          } else if (operation !== "ConditionCheckItem" && !writeAllowed(invocation.grant, operation, pk, attributes)) {
            const { partition } = recorded(pk, sk);
            const where = partition.endsWith("#") ? `${partition}*` : partition;
            const message = `${invocation.name} is not granted dynamodb:${operation} on ${where} naming ${attributes.join(", ")} (infra/table-grants.ts)`;
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
