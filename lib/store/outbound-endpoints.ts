import { GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { countOn, insertCounted } from "./counted";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { Outcome } from "./outcomes";
import { queryAll } from "./pagination";
import { transact } from "./transactions";

/**
 * Outbound webhook endpoints in the table (docs/data-model.md, "Outbound webhook endpoint").
 * Key strings come from lib/store/keys.ts only.
 */

/**
 * What an endpoint is: a Standard Webhooks receiver, or a chat destination whose messages are
 * built for its platform (lib/outbound/chat/, docs/notifications.md). An item written before
 * kinds existed has none: it is a `webhook`.
 */
export const ENDPOINT_KINDS = ["webhook", "slack", "teams", "discord", "google_chat"] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];
export type ChatKind = Exclude<EndpointKind, "webhook">;

/**
 * The events an endpoint subscribes to (docs/outbound-webhooks.md, "Events"): a new submission,
 * and a change of a submission's status, owner or tags. An item written before events existed
 * has none: it receives `submission.created` only (eventsOf).
 */
export const ENDPOINT_EVENTS = ["submission.created", "submission.updated"] as const;
export type EndpointEvent = (typeof ENDPOINT_EVENTS)[number];
export const DEFAULT_ENDPOINT_EVENTS: readonly EndpointEvent[] = ["submission.created"];

/** The grades a chat destination may ask for at least (ChatOptions.minGrade). */
export const MIN_GRADES = ["warm", "hot"] as const;

/** A chat destination's filters and message options (docs/notifications.md, "Filters"). */
export interface ChatOptions {
  /** Only leads of this grade or better; null: every grade. */
  minGrade: (typeof MIN_GRADES)[number] | null;
  /** False: the message says only that a lead arrived, with its link (no name, email or values). */
  includeFieldValues: boolean;
  /** At most this many of the submission's fields in the message (besides name and email). */
  maxFields: number;
}

export interface OutboundEndpoint {
  id: string;
  /** Absent on items written before destinations existed: a webhook. */
  kind?: EndpointKind;
  formId: string;
  orgId: string;
  siteId: string;
  url: string;
  description: string | null;
  isEnabled: boolean;
  /**
   * The Standard Webhooks secret (`whsec_...`), stored as it is: every delivery is signed with
   * it, so it cannot be hashed like inbound secrets. DynamoDB encrypts it at rest; the API
   * returns it once, at creation, and it is never logged (docs/outbound-webhooks.md). Null for a
   * chat destination: the platforms verify nothing, its URL is the secret.
   */
  signingSecret: string | null;
  /** A chat destination's options (absent on webhooks). */
  chat?: ChatOptions;
  /** The events it receives; absent (items written before events existed): `submission.created` only. */
  events?: EndpointEvent[];
  /** Why the service disabled it (a 410 answer), or null. */
  disabledReason: string | null;
  disabledAt: string | null;
  /** When the last test event was sent (paces test sends, see stampTestSend). */
  lastTestAt?: string;
  createdAt: string;
  updatedAt: string;
  /** Set while its latest attempt failed (./failing-endpoints.ts); absent otherwise. */
  failing?: unknown;
}

/** Endpoints per form, webhooks and chat destinations together (the count lives on its own item, see insertEndpoint). */
export const MAX_ENDPOINTS_PER_FORM = 10;

const toEndpoint = (item: Record<string, unknown>) => fromItem<OutboundEndpoint>(item, "ttl");

export const kindOf = (endpoint: Pick<OutboundEndpoint, "kind">): EndpointKind => endpoint.kind ?? "webhook";

/** The events `endpoint` receives (absent: DEFAULT_ENDPOINT_EVENTS). */
export const eventsOf = (endpoint: Pick<OutboundEndpoint, "events">): readonly EndpointEvent[] =>
  endpoint.events && endpoint.events.length > 0 ? endpoint.events : DEFAULT_ENDPOINT_EVENTS;

export const subscribes = (endpoint: Pick<OutboundEndpoint, "events">, event: EndpointEvent) =>
  eventsOf(endpoint).includes(event);

/**
 * Creates an endpoint and counts it on the form's counter item in one transaction, so the
 * per-form limit holds under concurrent creates.
 */
export async function insertEndpoint(endpoint: OutboundEndpoint): Promise<Outcome<"OK" | "LIMIT_REACHED">> {
  const outcome = await insertCounted({
    item: { ...keys.outboundEndpoint(endpoint.formId, endpoint.id), type: "outbound_endpoint", ...endpoint },
    parent: keys.outboundEndpointCount(endpoint.formId),
    counter: "count",
    max: MAX_ENDPOINTS_PER_FORM,
    // The count lives on an item of its own, made by the first insert.
    parentMustExist: false,
    setOnParent: { type: "outbound_endpoint_count" },
  });
  return outcome.inserted ? "OK" : "LIMIT_REACHED";
}

export async function getEndpoint(formId: string, endpointId: string): Promise<OutboundEndpoint | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: keys.outboundEndpoint(formId, endpointId) }));
  return out.Item ? toEndpoint(out.Item) : undefined;
}

/** A form's endpoints, oldest first by id order (at most MAX_ENDPOINTS_PER_FORM: one page). */
export async function listFormEndpoints(formId: string): Promise<OutboundEndpoint[]> {
  const items = await queryAll({
    KeyConditionExpression: "pk = :pk AND begins_with(sk, :prefix)",
    ExpressionAttributeValues: {
      ":pk": keys.outboundEndpointPartition(formId),
      ":prefix": keys.outboundEndpointPrefix(),
    },
  });
  return items.map(toEndpoint).sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
}

export interface EndpointChanges {
  url?: string;
  chat?: ChatOptions;
  events?: EndpointEvent[];
  description?: string | null;
  isEnabled?: boolean;
  disabledReason?: string | null;
  disabledAt?: string | null;
}

/** Applies `changes`; undefined when the endpoint is gone. */
export async function updateEndpoint(
  formId: string,
  endpointId: string,
  changes: EndpointChanges,
  now: string,
): Promise<OutboundEndpoint | undefined> {
  const names: Record<string, string> = { "#updatedAt": "updatedAt" };
  const values: Record<string, unknown> = { ":now": now };
  const sets = ["#updatedAt = :now"];
  for (const [i, [name, value]] of Object.entries(changes).entries()) {
    if (value === undefined) continue;
    names[`#f${i}`] = name;
    values[`:f${i}`] = value;
    sets.push(`#f${i} = :f${i}`);
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundEndpoint(formId, endpointId),
        UpdateExpression: `SET ${sets.join(", ")}`,
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: "ALL_NEW",
      }),
    );
    return out.Attributes ? toEndpoint(out.Attributes) : undefined;
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}

/**
 * Stamps a test send on the endpoint (`lastTestAt = now`) if it is still there, enabled, and its
 * previous test send is older than `notBefore` (or there is none): one conditional UpdateItem
 * paces test events per endpoint. False when the condition failed.
 */
export async function stampTestSend(formId: string, endpointId: string, now: string, notBefore: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.outboundEndpoint(formId, endpointId),
        UpdateExpression: "SET lastTestAt = :now",
        ConditionExpression:
          "attribute_exists(pk) AND isEnabled = :true AND (attribute_not_exists(lastTestAt) OR lastTestAt < :notBefore)",
        ExpressionAttributeValues: { ":now": now, ":true": true, ":notBefore": notBefore },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** Deletes an endpoint and uncounts it. Its deliveries expire by TTL. */
export async function deleteEndpoint(formId: string, endpointId: string): Promise<Outcome<"OK" | "NOT_FOUND">> {
  const TableName = tableName();
  const cancelled = await transact([
    [
      "endpoint",
      { Delete: { TableName, Key: keys.outboundEndpoint(formId, endpointId), ConditionExpression: "attribute_exists(pk)" } },
    ],
    ["count", countOn(keys.outboundEndpointCount(formId), "count", -1, { parentMustExist: false })],
  ]);
  if (!cancelled) return "OK";
  if (cancelled.refused("endpoint")) return "NOT_FOUND";
  throw cancelled.error;
}
