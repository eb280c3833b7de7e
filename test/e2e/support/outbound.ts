import { readFileSync } from "node:fs";
import { BatchWriteItemCommand, DynamoDBClient, type WriteRequest } from "@aws-sdk/client-dynamodb";
import { marshall } from "@aws-sdk/util-dynamodb";
import type { APIRequestContext } from "@playwright/test";
import { LOCAL_CREDENTIALS } from "../../../infra/local/emulators";
import { type LocalStackInfo, stackFile } from "../../../infra/local/stack-file";
import { randomBase62 } from "../../../lib/ids";
import { type Delivery, type DeliveryStatus, deliveryItem } from "../../../lib/store/outbound-deliveries";
import { type Account, apiAs } from "./fixtures";

/**
 * Helpers of the outbound webhooks spec: a site with a published builder form, and endpoints
 * arranged through the API. Deliveries go to the loopback receiver of test/support/outbound-receiver.ts,
 * which the local stack may reach (it allows private targets: infra/local/stack.ts).
 */

/** A site and a published form built on it; answers their ids. */
export async function createForm(request: APIRequestContext, account: Account, name = "Contact") {
  const { site } = await apiAs<{ site: { id: string } }>(request, account, "POST", "/api/v1/sites", { name: `${name} site` });
  const { form } = await apiAs<{ form: { id: string } }>(request, account, "POST", `/api/v1/sites/${site.id}/forms`, {
    name,
    status: "published",
  });
  return { siteId: site.id, formId: form.id };
}

/** A source that sends to the built form `formId`: its intake URL and secret. */
export async function createLinkedSource(request: APIRequestContext, account: Account, siteId: string, formId: string) {
  const hook = await apiAs<{ webhookUrl: string; secretKey: string }>(
    request,
    account,
    "POST",
    `/api/v1/sites/${siteId}/webhooks`,
    {
      name: "Contact form",
      formId,
    },
  );
  return { url: hook.webhookUrl, secret: hook.secretKey };
}

export async function addEndpoint(
  request: APIRequestContext,
  account: Account,
  formId: string,
  url: string,
  description: string | null = null,
) {
  return apiAs<{ id: string; signingSecret: string }>(request, account, "POST", `/api/v1/forms/${formId}/outbound-webhooks`, {
    url,
    description,
  });
}

export async function sendTest(request: APIRequestContext, account: Account, formId: string, endpointId: string) {
  return apiAs<{ delivery: { id: string } }>(
    request,
    account,
    "POST",
    `/api/v1/forms/${formId}/outbound-webhooks/${endpointId}/test`,
  );
}

/** Waits until every listed endpoint's newest delivery has settled (delivered or failed). */
export async function settled(request: APIRequestContext, account: Account, formId: string): Promise<boolean> {
  const { outboundWebhooks } = await apiAs<{
    outboundWebhooks: { lastDelivery: { status: string } | null }[];
  }>(request, account, "GET", `/api/v1/forms/${formId}/outbound-webhooks`);
  return outboundWebhooks.every((e) => e.lastDelivery && ["delivered", "failed"].includes(e.lastDelivery.status));
}

/**
 * Writes `statuses.length` finished test-event deliveries of an endpoint straight into DynamoDB
 * Local with lib/store's own item builder (exactly what the API writes), one minute apart, the
 * first newest: a log longer than a page without waiting for real sends (which are paced).
 */
export async function seedDeliveries(
  endpoint: { id: string; formId: string; orgId: string },
  statuses: DeliveryStatus[],
): Promise<Delivery[]> {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run through playwright.config.ts");
  const info = JSON.parse(readFileSync(stackFile(dir), "utf8")) as LocalStackInfo;
  const client = new DynamoDBClient({ endpoint: info.dynamodbEndpoint, region: info.region, credentials: LOCAL_CREDENTIALS });
  const now = Date.now();
  const deliveries = statuses.map((status, n): Delivery => {
    const at = new Date(now - (n + 1) * 60_000).toISOString();
    return {
      id: `dlv_${randomBase62(22)}`,
      endpointId: endpoint.id,
      formId: endpoint.formId,
      orgId: endpoint.orgId,
      submissionId: null,
      eventType: "webhook.test",
      lead: null,
      status,
      attemptCount: 1,
      finalAttempt: 1,
      attempts: [
        {
          number: 1,
          statusCode: status === "delivered" ? 200 : 500,
          durationMs: 40 + n,
          error: status === "delivered" ? null : "HTTP 500",
          attemptedAt: at,
          nextAttemptAt: null,
          trigger: "automatic",
        },
      ],
      attemptsOmitted: 0,
      nextAttemptAt: null,
      lastError: null,
      claimToken: null,
      deliveredAt: status === "delivered" ? at : null,
      createdAt: at,
      updatedAt: at,
    };
  });
  const requests: WriteRequest[] = deliveries.map((d) => ({
    PutRequest: { Item: marshall(deliveryItem(d, now), { removeUndefinedValues: true }) },
  }));
  for (let i = 0; i < requests.length; i += 25) {
    let pending = requests.slice(i, i + 25);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 10) throw new Error("BatchWriteItem kept returning unprocessed items");
      const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [info.tableName]: pending } }));
      pending = out.UnprocessedItems?.[info.tableName] ?? [];
    }
  }
  client.destroy();
  return deliveries;
}
