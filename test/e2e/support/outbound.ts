import type { APIRequestContext } from "@playwright/test";
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
