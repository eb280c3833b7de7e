import { QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { db, isConditionFailure, tableName } from "../aws/dynamodb";
import { fromItem } from "./items";
import { keys } from "./keys";
import type { OutboundEndpoint } from "./outbound-endpoints";
import { GSI1 } from "./table-definition";

/**
 * A site's outbound endpoints that are failing now (docs/data-model.md, "Failing endpoints"):
 * an endpoint whose latest attempt did not deliver carries `failing` and the index keys of its
 * site's failing list (GSI1, sparse); the next delivered attempt removes both. The overview
 * reads the list with one Query instead of walking forms, endpoints and deliveries.
 */

/** `retrying`: another attempt is scheduled; `failed`: the delivery gave up. */
export const FAILURE_STATUSES = ["retrying", "failed"] as const;

export interface EndpointFailure {
  deliveryId: string;
  status: (typeof FAILURE_STATUSES)[number];
  statusCode: number | null;
  error: string | null;
  failedAt: string;
  nextAttemptAt: string | null;
}

/** An endpoint in its site's failing list, as stored (the signing secret included: never answer it as is). */
export type FailingEndpoint = OutboundEndpoint & { failing: EndpointFailure; failingSince: string };

/** Endpoints listed at most by the overview. */
export const MAX_FAILING_LISTED = 20;

/**
 * Both writes apply only if no later attempt's outcome is recorded on the endpoint (`healthAt`):
 * attempts of several deliveries to one endpoint may finish out of order.
 */
const LATER_NOT_RECORDED = "attribute_exists(pk) AND (attribute_not_exists(healthAt) OR healthAt <= :at)";

async function conditionalUpdate(input: ConstructorParameters<typeof UpdateCommand>[0]): Promise<void> {
  try {
    await db().send(new UpdateCommand(input));
  } catch (error) {
    // The endpoint is gone, or a later outcome is recorded: nothing to say.
    if (!isConditionFailure(error)) throw error;
  }
}

/**
 * Puts an endpoint on its site's failing list, or records its latest failure there. Its place in
 * the list (`gsi1sk`) is set by its first failure and kept while it keeps failing: a changed
 * index key costs the index a delete and a put, and the entry would flicker out of a query
 * between the two.
 */
export function markEndpointFailing(endpoint: Pick<OutboundEndpoint, "formId" | "id" | "siteId">, failure: EndpointFailure) {
  const index = keys.failingEndpointIndex(endpoint.siteId, failure.failedAt, endpoint.id);
  return conditionalUpdate({
    TableName: tableName(),
    Key: keys.outboundEndpoint(endpoint.formId, endpoint.id),
    UpdateExpression:
      "SET failing = :failing, failingSince = if_not_exists(failingSince, :at), healthAt = :at, gsi1pk = :gsi1pk, gsi1sk = if_not_exists(gsi1sk, :gsi1sk)",
    ConditionExpression: LATER_NOT_RECORDED,
    ExpressionAttributeValues: { ":failing": failure, ":at": failure.failedAt, ":gsi1pk": index.gsi1pk, ":gsi1sk": index.gsi1sk },
  });
}

/** Takes an endpoint off its site's failing list: an attempt delivered at `at`. */
export function clearEndpointFailing(endpoint: Pick<OutboundEndpoint, "formId" | "id">, at: string) {
  return conditionalUpdate({
    TableName: tableName(),
    Key: keys.outboundEndpoint(endpoint.formId, endpoint.id),
    UpdateExpression: "SET healthAt = :at REMOVE failing, failingSince, gsi1pk, gsi1sk",
    ConditionExpression: LATER_NOT_RECORDED,
    ExpressionAttributeValues: { ":at": at },
  });
}

/** The site's failing endpoints, the most recently started failing first (GSI1, eventually consistent: a second late at most). */
export async function listFailingEndpoints(siteId: string, limit = MAX_FAILING_LISTED): Promise<FailingEndpoint[]> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GSI1,
      KeyConditionExpression: "gsi1pk = :pk",
      ExpressionAttributeValues: { ":pk": keys.failingEndpointIndexPartition(siteId) },
      ScanIndexForward: false,
      Limit: limit,
    }),
  );
  return (out.Items ?? []).map((item) => fromItem<FailingEndpoint>(item));
}
