import type { APIRequestContext } from "@playwright/test";
import { type Account, apiAs, counted, createSource, expect, submit } from "./fixtures";

/** What a person's browser sends with a form post: the browser spam signals stay quiet. */
const BROWSER = { referer: "http://localhost/contact", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0" };

/**
 * A site whose one source brought `leads` inbox submissions and one spam (the honeypot filled),
 * all through the real intake URL; answers the ids the overview shows.
 */
export async function siteWithTraffic(request: APIRequestContext, account: Account, leads = 3) {
  const source = await createSource(request, account, "Contact form");
  const ids: string[] = [];
  for (let i = 0; i < leads; i++) {
    const sent = await submit(
      request,
      source,
      { name: `Lead ${i}`, email: `lead${i}@example.com`, message: `Question number ${i} about a quote.` },
      BROWSER,
    );
    ids.push(sent.submissionId);
  }
  await submit(request, source, { name: "Bot", email: "bot@example.com", message: "Buy now", _hp: "x" }, BROWSER);
  await counted(request, account, source.siteId, source.webhookId, leads + 1);
  const { submission } = await apiAs<{ submission: { formId: string } }>(
    request,
    account,
    "GET",
    `/api/v1/submissions/${ids[0]}`,
  );
  return { ...source, formId: submission.formId, leadIds: ids };
}

/**
 * An outbound endpoint of the form at a loopback port nobody listens on (the local stack allows
 * private targets), then one more lead: its delivery fails and the endpoint is failing now.
 */
export async function failingEndpoint(
  request: APIRequestContext,
  account: Account,
  site: { siteId: string; formId: string; url: string; secret: string },
) {
  const endpoint = await apiAs<{ id: string; url: string }>(
    request,
    account,
    "POST",
    `/api/v1/forms/${site.formId}/outbound-webhooks`,
    { url: "http://127.0.0.1:9/crm-hook", description: "CRM sync" },
  );
  await submit(
    request,
    site,
    { name: "Grace Hopper", email: "grace@example.com", message: "Please send the brochure." },
    BROWSER,
  );
  // The pipeline makes the attempt a moment later: arranged once the overview lists it.
  await expect
    .poll(
      async () =>
        (
          await apiAs<{ failingDeliveries: { endpointId: string }[] }>(
            request,
            account,
            "GET",
            `/api/v1/sites/${site.siteId}/overview`,
          )
        ).failingDeliveries.map((f) => f.endpointId),
      { timeout: 30_000 },
    )
    .toEqual([endpoint.id]);
  return endpoint;
}
