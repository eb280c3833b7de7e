import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { ExtraRoute } from "../../infra/local/gateway";
import { db, tableName } from "../../lib/store/client";

/**
 * The physical reference of the throughput bench: a route whose handler does one PutItem of the
 * request body, and nothing else, served by the same local gateway as the intake route (an
 * extra route of `startGateway`, never in the route table, never deployed). Its items are
 * marked `type: "bench"` and pass no stream filter.
 */
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
    return { statusCode: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ success: true, id }) };
  },
};
