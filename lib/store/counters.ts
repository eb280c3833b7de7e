import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, tableName } from "../aws/dynamodb";
import { keys } from "./keys";

/**
 * Fixed-window counters shared by every function instance: one item per (scope, subject,
 * window), incremented atomically with ADD, expiring by TTL one window after it closes.
 * DynamoDB deletes expired items lazily, so readers compare the window themselves.
 */
export function windowStart(now: number, windowSeconds: number): number {
  return Math.floor(now / 1000 / windowSeconds) * windowSeconds;
}

export async function incrementCounter(
  scope: string,
  subject: string,
  windowSeconds: number,
  now = Date.now(),
  by = 1,
): Promise<{ count: number; resetAt: number }> {
  const start = windowStart(now, windowSeconds);
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(scope, subject, start),
      UpdateExpression: "ADD #count :by SET #ttl = if_not_exists(#ttl, :ttl), #type = if_not_exists(#type, :type)",
      ExpressionAttributeNames: { "#count": "count", "#ttl": "ttl", "#type": "type" },
      ExpressionAttributeValues: { ":by": by, ":ttl": start + 2 * windowSeconds, ":type": "counter" },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return { count: Number(out.Attributes?.count ?? by), resetAt: start + windowSeconds };
}

/**
 * One item counting both a window and the sub-window now running inside it (e.g. an IP's
 * submissions this hour and this minute): one write instead of two. The sub-window counts are
 * top-level attributes named by their start offset (`s0`, `s60`, ...), so `ADD` needs no map to
 * exist first; the item expires with its window.
 */
export async function incrementWindowAndSubWindow(
  scope: string,
  subject: string,
  windowSeconds: number,
  subWindowSeconds: number,
  now = Date.now(),
): Promise<{ window: number; subWindow: number }> {
  const start = windowStart(now, windowSeconds);
  const subName = `s${windowStart(now, subWindowSeconds) - start}`;
  const out = await db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.counter(scope, subject, start),
      UpdateExpression: "ADD #count :one, #sub :one SET #ttl = if_not_exists(#ttl, :ttl), #type = if_not_exists(#type, :type)",
      ExpressionAttributeNames: { "#count": "count", "#sub": subName, "#ttl": "ttl", "#type": "type" },
      ExpressionAttributeValues: { ":one": 1, ":ttl": start + 2 * windowSeconds, ":type": "counter" },
      ReturnValues: "UPDATED_NEW",
    }),
  );
  return { window: Number(out.Attributes?.count ?? 1), subWindow: Number(out.Attributes?.[subName] ?? 1) };
}
