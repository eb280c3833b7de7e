import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";

export type SourceKind = "generic" | "partner_ads" | "partner_automation";

export const SOURCE_LABELS: Record<SourceKind, string> = {
  generic: "Website form or script",
  partner_ads: "Advertising lead form",
  partner_automation: "Automation platform",
};

export const sourceKeys = {
  list: (siteId: string, archived: boolean) => ["sites", siteId, "webhooks", { archived }] as const,
  one: (siteId: string, webhookId: string) => ["sites", siteId, "webhooks", webhookId] as const,
  forms: (siteId: string) => ["sites", siteId, "forms"] as const,
  site: (siteId: string) => ["sites", siteId, "webhooks"] as const,
};

export const sourcesQuery = (siteId: string, archived: boolean) =>
  queryOptions({
    queryKey: sourceKeys.list(siteId, archived),
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
    queryKey: sourceKeys.one(siteId, webhookId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/sites/{id}/webhooks/{webhookId}", { params: { path: { id: siteId, webhookId } } }))).data,
  });

export const formsQuery = (siteId: string) =>
  queryOptions({
    queryKey: sourceKeys.forms(siteId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/sites/{id}/forms", { params: { path: { id: siteId }, query: { limit: 100 } } }))).data,
  });

const path = (siteId: string, webhookId: string) => ({ params: { path: { id: siteId, webhookId } } });

export const createSource = (siteId: string, body: { name: string; source: SourceKind }) =>
  unwrap(api.POST("/api/v1/sites/{id}/webhooks", { params: { path: { id: siteId } }, body })).then((r) => r.data);

export const updateSource = (siteId: string, webhookId: string, body: { isEnabled?: boolean; restore?: boolean }) =>
  unwrap(api.PUT("/api/v1/sites/{id}/webhooks/{webhookId}", { ...path(siteId, webhookId), body })).then((r) => r.data);

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
