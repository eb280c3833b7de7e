import { randomUUID } from "node:crypto";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { APIGatewayProxyEventV2 } from "aws-lambda";
import type { ExtraRoute } from "../../infra/local/gateway";
import { db, tableName } from "../../lib/aws/dynamodb";

/**
 * The physical references of the throughput bench, served by the same local gateway as the
 * intake route (extra routes of `startGateway`, never in the route table, never deployed).
 * Their items live under `BENCH#` partitions, are marked `type: "bench"` and pass no stream
 * filter.
 */

const ok = (id: string) => ({
  statusCode: 200,
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ success: true, id }),
});

/** The throughput reference: one PutItem of the request body and nothing else, the least an intake could do. */
export const singlePutRoute: ExtraRoute = {
  def: { route: "POST /bench/single-put", handler: "bench/single-put", auth: "public", table: "write" },
  handler: async (event) => {
    const id = randomUUID();
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { pk: `BENCH#${id}`, sk: "BENCH", type: "bench", body: event.body ?? "" },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return ok(id);
  },
};

const get = (pk: string, consistent = false) =>
  db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: "BENCH" }, ConsistentRead: consistent }));
const add = (pk: string, attribute: string, extra: Record<string, unknown> = {}) =>
  db().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: { pk, sk: "BENCH" },
      UpdateExpression: `ADD #n :one SET #t = :type${Object.keys(extra)
        .map((k) => `, #${k} = :${k}`)
        .join("")}`,
      ExpressionAttributeNames: {
        "#n": attribute,
        "#t": "type",
        ...Object.fromEntries(Object.keys(extra).map((k) => [`#${k}`, k])),
      },
      ExpressionAttributeValues: {
        ":one": 1,
        ":type": "bench",
        ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`:${k}`, v])),
      },
    }),
  );

/**
 * A second reference: the DynamoDB calls of an accepted clean intake submission on a warm
 * instance under load (docs/performance.md, section 2: the configuration kept, a reference
 * number held, so no webhook, site or form read and no reservation), in the same two waves, on
 * items of the same sizes and with the same hot items (the per-IP counter that every request
 * writes, the submission in the index), and
 * no other code: no parsing, no checks, no spam scoring, no pipeline behind it. Intake's
 * throughput over this one is the share of the stack's capacity its own code and its pipeline
 * leave to it.
 */
export const intakeCallsRoute: ExtraRoute = {
  def: { route: "POST /bench/intake-calls", handler: "bench/intake-calls", auth: "public", table: "write" },
  handler: async (event: APIGatewayProxyEventV2) => {
    const id = randomUUID();
    const hourMinute = new Date().toISOString().slice(0, 16);
    // 1. The per-IP counter and the duplicate marker, side by side.
    await Promise.all([add("BENCH#ip-counter", "hour", { minute: hourMinute }), get(`BENCH#dup#${id}`, true)]);
    // 2. The submission (in the index) and the marker (counts are the bookkeeper's, from the stream).
    await Promise.all([
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: {
            pk: `BENCH#sub#${id}`,
            sk: "BENCH",
            type: "bench",
            gsi1pk: "BENCH#subs",
            gsi1sk: `${hourMinute}#${id}`,
            body: event.body ?? "",
            padding: "x".repeat(400),
          },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
      db().send(
        new PutCommand({
          TableName: tableName(),
          Item: { pk: `BENCH#dup#${id}`, sk: "BENCH", type: "bench", ttl: Math.floor(Date.now() / 1000) + 600 },
        }),
      ),
    ]);
    return ok(id);
  },
};
