import { AsyncLocalStorage } from "node:async_hooks";
import { performance } from "node:perf_hooks";
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import { db, setDb } from "../../lib/aws/dynamodb";
import { loadConfig } from "../../lib/config";
import { TABLE } from "../../lib/store/table-definition";

/**
 * A recording middleware on the document client, for the bench and the perf test only: every
 * DynamoDB call made inside `recorder.run(fn)` is recorded with its command, table, keys, start
 * and end, and the write and read units it consumes. The units are computed from item sizes by
 * DynamoDB's documented rules, never taken from DynamoDB Local (its ConsumedCapacity is wrong):
 *
 * - Item size: attribute names plus values; strings as UTF-8 bytes, numbers ~1 byte per two
 *   significant digits + 1, binary raw bytes, null and boolean 1 byte, a list or map 3 bytes
 *   plus its elements plus 1 byte per element.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html
 * - Writes: 1 unit per KB rounded up, of the larger of the item before and after (PutItem,
 *   UpdateItem), of the deleted item (DeleteItem). A failed condition still consumes the
 *   existing item's size, at least 1 unit.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ConditionExpressions.html
 * - Reads: 1 unit per 4 KB rounded up strongly consistent, half that eventually consistent,
 *   of the whole item whatever the projection; an absent item still costs the minimum. A Query
 *   sums the sizes of the items it evaluated (before any filter) and rounds once; a BatchGetItem
 *   rounds each item as a GetItem (the page above, "BatchGetItem").
 * - Transactions: two underlying reads or writes of every item, so 2x.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html#transaction-capacity-handling
 * - Global secondary index (gsi1 projects ALL, so an index entry is the whole item): a new item
 *   in the index is one index write of its size; an index key change two (delete + put); an
 *   item leaving the index one; an update that changes only non-key attributes of an item in
 *   the index one ("only changes the value of projected attributes", and with ALL every
 *   attribute is projected); an item in the index neither before nor after costs nothing, and
 *   neither does a write that leaves the item's projected values exactly as they were.
 *   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes
 *   Index writes of a transaction's items are counted once (the 2x applies to the table's
 *   prepare and commit; the docs state nothing for the asynchronous index propagation).
 *
 * To know "before" and "after" images the recorder reads the items it needs with a separate,
 * unrecorded client (a strongly consistent GetItem around each write; a Query again without
 * its filter when it had one). Those reads lengthen the recorded intervals but never reorder
 * them, so the sequential depth stays right; time handlers without the recorder.
 */

export interface ItemCost {
  key: string;
  /** Bytes before and after (undefined: absent), or read. */
  before?: number;
  after?: number;
  read?: number;
  wcu: number;
  gsiWcu: number;
  rcu: number;
}

export interface RecordedCall {
  /** The API operation: GetItem, PutItem, UpdateItem, TransactWriteItems, Query, ... */
  command: string;
  table: string;
  index?: string;
  /** `pk | sk` of each item touched, or the key condition's partition for a Query. */
  keys: string[];
  consistent?: boolean;
  /** Milliseconds (performance.now()) when the call was made and when its answer came back. */
  start: number;
  end: number;
  ok: boolean;
  error?: string;
  /** 1 for a call that waits on nothing recorded before it; else 1 + the depth of the deepest call that ended before it started. */
  depth: number;
  wcu: number;
  gsiWcu: number;
  rcu: number;
  items: ItemCost[];
}

export interface RecordingSummary {
  calls: RecordedCall[];
  /** The critical path: the longest chain of calls each starting after the previous ended. */
  sequentialRoundTrips: number;
  wcu: number;
  /** Write units of index propagation, included in `wcu`. */
  gsiWcu: number;
  rcu: number;
}

const KB = 1024;
const utf8 = (s: string) => Buffer.byteLength(s, "utf8");

/** Significant digits of a DynamoDB number: sign, point, leading and trailing zeros dropped. */
function numberSize(n: string): number {
  const digits = n
    .replace(/^[-+]/, "")
    .replace(/[eE].*$/, "")
    .replace(".", "")
    .replace(/^0+/, "")
    .replace(/0+$/, "");
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

export function valueSize(v: AttributeValue): number {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS !== undefined) return v.SS.reduce((sum, s) => sum + utf8(s), 0);
  if (v.NS !== undefined) return v.NS.reduce((sum, s) => sum + numberSize(s), 0);
  if (v.BS !== undefined) return v.BS.reduce((sum, b) => sum + b.length, 0);
  if (v.L !== undefined) return 3 + v.L.reduce((sum, e) => sum + valueSize(e) + 1, 0);
  if (v.M !== undefined) return 3 + Object.entries(v.M).reduce((sum, [k, e]) => sum + utf8(k) + valueSize(e) + 1, 0);
  throw new Error(`unknown attribute value ${JSON.stringify(v)}`);
}

const MARSHALL = { removeUndefinedValues: true } as const;

/** An item's size in bytes by DynamoDB's rules, from a document-client (plain) item. */
export function itemSize(item: Record<string, unknown>): number {
  const attrs = marshall(item, MARSHALL) as Record<string, AttributeValue>;
  return Object.entries(attrs).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));
const readUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / (4 * KB)));

type Item = Record<string, unknown>;
const { partitionKey: PK, sortKey: SK } = TABLE;
const INDEXES = TABLE.indexes;
const keyOf = (item: Item) => ({ [PK]: item[PK], [SK]: item[SK] });
const keyText = (key: Item) => `${String(key[PK])} | ${String(key[SK])}`;

const stable = (value: unknown): string =>
  JSON.stringify(marshall({ v: value } as Item, MARSHALL), (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/** Index write units of one item's change (every index projects ALL: an entry is the whole item). */
export function indexWriteUnits(before: Item | undefined, after: Item | undefined): number {
  let units = 0;
  for (const index of INDEXES) {
    const inIndex = (item: Item | undefined): item is Item =>
      item !== undefined && item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined;
    const was = inIndex(before);
    const is = inIndex(after);
    if (!was && !is) continue;
    if (was && !is) units += writeUnits(itemSize(before as Item));
    else if (!was && is) units += writeUnits(itemSize(after as Item));
    else {
      const b = before as Item;
      const a = after as Item;
      const keyChanged =
        stable(b[index.partitionKey]) !== stable(a[index.partitionKey]) || stable(b[index.sortKey]) !== stable(a[index.sortKey]);
      if (keyChanged) units += writeUnits(itemSize(b)) + writeUnits(itemSize(a));
      else if (stable(b) !== stable(a)) units += writeUnits(itemSize(a));
    }
  }
  return units;
}

interface Recording {
  calls: RecordedCall[];
}

const storage = new AsyncLocalStorage<Recording>();

/** What a write action (alone or in a transaction) names: its key and, for a Put, its item. */
interface WriteAction {
  kind: "Put" | "Update" | "Delete" | "ConditionCheck";
  table: string;
  key: Item;
  item?: Item;
}

function writeActions(command: string, input: Record<string, any>): WriteAction[] {
  switch (command) {
    case "PutItem":
      return [{ kind: "Put", table: input.TableName, key: keyOf(input.Item), item: input.Item }];
    case "UpdateItem":
      return [{ kind: "Update", table: input.TableName, key: input.Key }];
    case "DeleteItem":
      return [{ kind: "Delete", table: input.TableName, key: input.Key }];
    case "TransactWriteItems":
      return (input.TransactItems as Record<string, any>[]).map((t) => {
        if (t.Put) return { kind: "Put", table: t.Put.TableName, key: keyOf(t.Put.Item), item: t.Put.Item };
        if (t.Update) return { kind: "Update", table: t.Update.TableName, key: t.Update.Key };
        if (t.Delete) return { kind: "Delete", table: t.Delete.TableName, key: t.Delete.Key };
        return { kind: "ConditionCheck", table: t.ConditionCheck.TableName, key: t.ConditionCheck.Key };
      });
    case "BatchWriteItem":
      return Object.entries(input.RequestItems as Record<string, Record<string, any>[]>).flatMap(([table, requests]) =>
        requests.map(
          (r): WriteAction =>
            r.PutRequest
              ? { kind: "Put", table, key: keyOf(r.PutRequest.Item), item: r.PutRequest.Item }
              : { kind: "Delete", table, key: r.DeleteRequest.Key },
        ),
      );
    default:
      return [];
  }
}

/** Which actions of a failed call were not applied: all of them (a transaction is all or nothing). */
const failedCondition = (error: unknown) => {
  const name = (error as { name?: string } | null)?.name;
  return name === "ConditionalCheckFailedException" || name === "TransactionCanceledException";
};

export class Recorder {
  private readonly shadow: DynamoDBDocumentClient;
  private readonly previous: DynamoDBDocumentClient;
  readonly client: DynamoDBDocumentClient;

  /**
   * Installs a recording document client through `setDb()`; `uninstall()` puts the previous one
   * back. Calls outside `run()` pass through unrecorded (the stack's own background work).
   */
  constructor() {
    this.previous = db();
    this.shadow = this.previous;
    const config = loadConfig();
    const base = new DynamoDBClient({
      region: config.AWS_REGION,
      ...(config.DYNAMODB_ENDPOINT ? { endpoint: config.DYNAMODB_ENDPOINT } : {}),
    });
    // The same translation options as lib/aws/dynamodb.ts.
    this.client = DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } });
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const recording = storage.getStore();
        if (!recording) return next(args);
        const command = String(context.commandName ?? "").replace(/Command$/, "");
        return this.recordCall(recording, command, args.input as Record<string, any>, () => next(args));
      },
      { step: "initialize", name: "inletRecorder", priority: "high" },
    );
    setDb(this.client);
  }

  uninstall(): void {
    setDb(this.previous);
  }

  /** Runs `fn`, recording every DynamoDB call it makes (and only those). */
  async run<T>(fn: () => Promise<T>): Promise<{ result: T; summary: RecordingSummary }> {
    const recording: Recording = { calls: [] };
    const result = await storage.run(recording, fn);
    return { result, summary: summarize(recording.calls) };
  }

  private async image(table: string, key: Item): Promise<Item | undefined> {
    const out = await this.shadow.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
    return out.Item;
  }

  private async recordCall<T>(
    recording: Recording,
    command: string,
    input: Record<string, any>,
    send: () => Promise<T>,
  ): Promise<T> {
    const start = performance.now();
    const actions = writeActions(command, input);
    const before = await Promise.all(actions.map((a) => this.image(a.table, a.key)));
    let output: T | undefined;
    let failure: unknown;
    try {
      output = await send();
    } catch (error) {
      failure = error;
    }
    const end = performance.now();
    const call: RecordedCall = {
      command,
      table: String(input.TableName ?? actions[0]?.table ?? Object.keys(input.RequestItems ?? {})[0] ?? ""),
      keys: [],
      start,
      end,
      ok: failure === undefined,
      depth: 0,
      wcu: 0,
      gsiWcu: 0,
      rcu: 0,
      items: [],
    };
    if (failure !== undefined) call.error = (failure as { name?: string }).name ?? String(failure);
    try {
      if (actions.length > 0) await this.costWrites(call, command, actions, before, failure);
      else await this.costReads(call, command, input, output as Record<string, any> | undefined);
    } catch (error) {
      call.error = `${call.error ?? ""} (cost not computed: ${String(error)})`;
    }
    recording.calls.push(call);
    if (failure !== undefined) throw failure;
    return output as T;
  }

  private async costWrites(
    call: RecordedCall,
    command: string,
    actions: WriteAction[],
    before: (Item | undefined)[],
    failure: unknown,
  ) {
    const factor = command === "TransactWriteItems" ? 2 : 1;
    const applied = failure === undefined;
    if (failure !== undefined && !failedCondition(failure)) return; // throttled or invalid: nothing written or charged
    const after = applied
      ? await Promise.all(
          actions.map((a) =>
            a.kind === "Put"
              ? Promise.resolve(a.item)
              : a.kind === "Delete"
                ? Promise.resolve(undefined)
                : this.image(a.table, a.key),
          ),
        )
      : before;
    actions.forEach((action, i) => {
      const b = before[i];
      const a = action.kind === "ConditionCheck" ? b : after[i];
      const bytesBefore = b ? itemSize(b) : undefined;
      const bytesAfter = a ? itemSize(a) : undefined;
      let units: number;
      if (!applied || action.kind === "ConditionCheck") units = writeUnits(bytesBefore ?? 0);
      else if (action.kind === "Delete") units = writeUnits(bytesBefore ?? 0);
      else units = writeUnits(Math.max(bytesBefore ?? 0, bytesAfter ?? 0));
      // A cancelled transaction: the prepare phase was done (1x), nothing committed.
      const wcu = units * (applied ? factor : 1);
      const gsiWcu = applied && action.kind !== "ConditionCheck" ? indexWriteUnits(b, a) : 0;
      call.keys.push(`${action.kind === "ConditionCheck" ? "check " : ""}${keyText(action.key)}`);
      call.items.push({
        key: keyText(action.key),
        ...(bytesBefore !== undefined ? { before: bytesBefore } : {}),
        ...(bytesAfter !== undefined ? { after: bytesAfter } : {}),
        wcu,
        gsiWcu,
        rcu: 0,
      });
      call.wcu += wcu + gsiWcu;
      call.gsiWcu += gsiWcu;
    });
  }

  private async costReads(
    call: RecordedCall,
    command: string,
    input: Record<string, any>,
    output: Record<string, any> | undefined,
  ) {
    const factor = (consistent: boolean | undefined) => (consistent ? 1 : 0.5);
    switch (command) {
      case "GetItem": {
        call.consistent = input.ConsistentRead === true;
        // Units follow the whole item, not the projection: read it whole when projected.
        const item = input.ProjectionExpression ? await this.image(input.TableName, input.Key) : output?.Item;
        const bytes = item ? itemSize(item) : 0;
        const rcu = readUnits(bytes) * factor(call.consistent);
        call.keys.push(keyText(input.Key));
        call.items.push({ key: keyText(input.Key), read: bytes, wcu: 0, gsiWcu: 0, rcu });
        call.rcu += rcu;
        return;
      }
      case "BatchGetItem": {
        for (const [table, request] of Object.entries(input.RequestItems as Record<string, Record<string, any>>)) {
          call.consistent = request.ConsistentRead === true;
          for (const key of request.Keys as Item[]) {
            const item = await this.image(table, key);
            const bytes = item ? itemSize(item) : 0;
            const rcu = readUnits(bytes) * factor(call.consistent);
            call.keys.push(keyText(key));
            call.items.push({ key: keyText(key), read: bytes, wcu: 0, gsiWcu: 0, rcu });
            call.rcu += rcu;
          }
        }
        return;
      }
      case "TransactGetItems": {
        for (const t of input.TransactItems as Record<string, any>[]) {
          const item = await this.image(t.Get.TableName, t.Get.Key);
          const bytes = item ? itemSize(item) : 0;
          const rcu = readUnits(bytes) * 2;
          call.keys.push(keyText(t.Get.Key));
          call.items.push({ key: keyText(t.Get.Key), read: bytes, wcu: 0, gsiWcu: 0, rcu });
          call.rcu += rcu;
        }
        return;
      }
      case "Query":
      case "Scan": {
        call.consistent = input.ConsistentRead === true;
        if (input.IndexName) call.index = input.IndexName;
        const partition = Object.values((input.ExpressionAttributeValues ?? {}) as Record<string, unknown>)[0];
        call.keys.push(`${command === "Query" ? "partition" : "scan"} ${String(partition ?? "")}`);
        // The items evaluated: the same page without filter or projection.
        let items = (output?.Items ?? []) as Item[];
        if (input.FilterExpression || input.ProjectionExpression || input.Select === "COUNT") {
          const { FilterExpression: _f, ProjectionExpression: _p, Select: _s, ...rest } = input;
          const names = { ...(rest.ExpressionAttributeNames ?? {}) } as Record<string, string>;
          const values = { ...(rest.ExpressionAttributeValues ?? {}) } as Record<string, unknown>;
          const used = `${rest.KeyConditionExpression ?? ""}`;
          for (const n of Object.keys(names)) if (!used.includes(n)) delete names[n];
          for (const v of Object.keys(values)) if (!used.includes(v)) delete values[v];
          const shadow = await this.shadow.send(
            new QueryCommand({
              ...rest,
              ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : { ExpressionAttributeNames: undefined }),
              ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : { ExpressionAttributeValues: undefined }),
            } as never),
          );
          items = (shadow.Items ?? []) as Item[];
        }
        const bytes = items.reduce((sum, item) => sum + itemSize(item), 0);
        const rcu = readUnits(bytes) * factor(call.consistent);
        call.items.push({ key: call.keys[0] ?? "", read: bytes, wcu: 0, gsiWcu: 0, rcu });
        call.rcu += rcu;
        return;
      }
      default:
        return;
    }
  }
}

/** Depth of each call (longest chain of calls each starting after the previous one ended) and totals. */
export function summarize(calls: RecordedCall[]): RecordingSummary {
  const ordered = [...calls].sort((a, b) => a.start - b.start);
  for (const call of ordered) {
    const waitedOn = ordered.filter((other) => other !== call && other.end <= call.start);
    call.depth = 1 + Math.max(0, ...waitedOn.map((other) => other.depth));
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    calls: ordered,
    sequentialRoundTrips: Math.max(0, ...ordered.map((c) => c.depth)),
    wcu: round(ordered.reduce((sum, c) => sum + c.wcu, 0)),
    gsiWcu: round(ordered.reduce((sum, c) => sum + c.gsiWcu, 0)),
    rcu: round(ordered.reduce((sum, c) => sum + c.rcu, 0)),
  };
}

/** One line per call, for reports and assertion messages. */
export function describeCalls(summary: RecordingSummary): string {
  return summary.calls
    .map(
      (c) =>
        `  [${c.depth}] ${c.command}${c.index ? ` (${c.index})` : ""}${c.consistent ? " consistent" : ""} ${c.keys.join(", ")}` +
        ` ${c.ok ? "" : `FAILED ${c.error} `}wcu=${c.wcu}${c.gsiWcu ? ` (gsi ${c.gsiWcu})` : ""} rcu=${c.rcu}`,
    )
    .join("\n");
}
