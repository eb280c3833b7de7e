import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Answer, Schema } from "../../api/types";

/** A source: what the API calls a site's inbound webhook. */
export type Source = Schema<"Webhook">;
/** A source just created: with its secret, shown this once. */
export type CreatedSource = Answer<"createWebhookResponse">;
/** A form of the site, as its list answers it (with its counts). */
export type SiteForm = Answer<"listFormsResponse">["forms"][number];

/**
 * What sends to a source: an HTML form or script, an advertising platform's lead form, or an
 * automation platform. The API names it the webhook's `source` field; here it is the source's
 * kind, so that a source's kind never reads `source.source`.
 */
export type SourceKind = Source["source"];

export const KIND_LABELS: Record<SourceKind, string> = {
  generic: "Website form or script",
  partner_ads: "Advertising lead form",
  partner_automation: "Automation platform",
};

/** A source's kind, read from the API's `source` field (the one place that field is read). */
export const kindOf = (source: Pick<Source, "source">): SourceKind => source.source;

export const sourcesQuery = (siteId: string, archived: boolean) =>
  queryOptions({
    queryKey: queryKeys.webhooks.list(siteId, archived),
    queryFn: async () =>
      (
        await unwrap(
          api.GET("/api/v1/sites/{id}/webhooks", {
            params: { path: { id: siteId }, query: { archived: archived ? "true" : "false" } },
          }),
        )
      ).data,
  });

export const sourceQuery = (siteId: string, webhookId: string) =>
  queryOptions({
    queryKey: queryKeys.webhooks.one(siteId, webhookId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/sites/{id}/webhooks/{webhookId}", { params: { path: { id: siteId, webhookId } } }))).data,
  });

/** The site's forms the sources fill (the first 100 active ones, with their counts). */
export const formsQuery = (siteId: string) =>
  queryOptions({
    queryKey: queryKeys.forms.ofSite(siteId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/sites/{id}/forms", { params: { path: { id: siteId }, query: { limit: 100 } } }))).data,
  });

const path = (siteId: string, webhookId: string) => ({ params: { path: { id: siteId, webhookId } } });

export const createSource = (siteId: string, { name, kind }: { name: string; kind: SourceKind }) =>
  unwrap(api.POST("/api/v1/sites/{id}/webhooks", { params: { path: { id: siteId } }, body: { name, source: kind } })).then(
    (r) => r.data,
  );

export const updateSource = (
  siteId: string,
  webhookId: string,
  body: { isEnabled?: boolean; restore?: boolean; compatibility?: Compatibility },
) => unwrap(api.PUT("/api/v1/sites/{id}/webhooks/{webhookId}", { ...path(siteId, webhookId), body })).then((r) => r.data);

export const rotateSecret = (siteId: string, webhookId: string) =>
  unwrap(api.POST("/api/v1/sites/{id}/webhooks/{webhookId}/rotate-secret", path(siteId, webhookId))).then((r) => r.data);

export const archiveSource = (siteId: string, webhookId: string) =>
  unwrap(api.DELETE("/api/v1/sites/{id}/webhooks/{webhookId}", path(siteId, webhookId)));

export const deleteSource = (siteId: string, webhookId: string) =>
  unwrap(
    api.DELETE("/api/v1/sites/{id}/webhooks/{webhookId}", {
      params: { path: { id: siteId, webhookId }, query: { permanent: "true" } },
    }),
  );

/** Which other service's field names a source reads (docs/moving-in.md); null: Inlet's own names only. */
export type Compatibility = Source["compatibility"];

/** A source's compatibility setting, as the API answers it (null when it has none). */
export const compatibilityOf = (source: Pick<Source, "compatibility">): Compatibility => source.compatibility;

/** Sets (or, with null, clears) the services whose fields a source reads. */
export const setCompatibility = (siteId: string, webhookId: string, compatibility: Compatibility) =>
  updateSource(siteId, webhookId, { compatibility });
