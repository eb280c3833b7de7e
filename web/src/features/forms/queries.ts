import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { Answer, Schema } from "../../api/types";

/** A form as the detail route answers it (fields and settings included). */
export type FormDetail = Schema<"FormDetail">;
export type FormField = Schema<"FormField">;
export type FieldType = FormField["type"];
/** A form as a site's list answers it. */
export type FormSummary = Answer<"listFormsResponse">["forms"][number];

/**
 * The form without its counts (counting reads every submission: docs/api.md, "Forms"): the form
 * layout and every page in it (its inbox, spam folder and outbound webhooks, given its name by
 * web/src/app/) share one cache entry and one request.
 */
export const formQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.forms.one(formId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/forms/{formId}", { params: { path: { formId }, query: { counts: "false" } } }))).data.form,
  });

/** The form with its counts, read when they matter (a permanent deletion's confirmation). */
export const countedFormQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.forms.counted(formId),
    queryFn: async () => (await unwrap(api.GET("/api/v1/forms/{formId}", { params: { path: { formId } } }))).data.form,
    staleTime: 0,
  });

/** A site's forms, archived or not (the first 100, with their counts). */
export const siteFormsQuery = (siteId: string, archived: boolean) =>
  queryOptions({
    queryKey: queryKeys.forms.list(siteId, archived),
    queryFn: async () =>
      (
        await unwrap(
          api.GET("/api/v1/sites/{id}/forms", {
            params: { path: { id: siteId }, query: { archived: archived ? "true" : "false", limit: 100 } },
          }),
        )
      ).data,
  });

/** Every source of the site, archived ones too: the names of the webhooks a deletion unlinks. */
export const siteSourcesQuery = (siteId: string) =>
  queryOptions({
    queryKey: queryKeys.webhooks.everyOne(siteId),
    queryFn: async () => {
      const [active, archived] = await Promise.all(
        (["false", "true"] as const).map((archived) =>
          unwrap(api.GET("/api/v1/sites/{id}/webhooks", { params: { path: { id: siteId }, query: { archived } } })),
        ),
      );
      return [...(active?.data.webhooks ?? []), ...(archived?.data.webhooks ?? [])].map((w) => ({ id: w.id, name: w.name }));
    },
  });

const path = (formId: string) => ({ params: { path: { formId } } });

export const createForm = (siteId: string, name: string) =>
  unwrap(api.POST("/api/v1/sites/{id}/forms", { params: { path: { id: siteId } }, body: { name } })).then((r) => r.data.form);

export interface FormEdit {
  name?: string;
  fields?: { key: string; label: string; type: FieldType; required: boolean; order: number }[];
  settings?: {
    notifyEmails?: string[];
    redirectUrl?: string | null;
    /** The confirmation email: the keys given replace the form's (docs/email.md). */
    confirmation?: Partial<FormDetail["settings"]["confirmation"]>;
    /** Forward-only (docs/privacy.md): each change is recorded in the audit log. */
    forwardOnly?: boolean;
  };
  restore?: true;
  /** The version edited: a form changed since answers 409 CONFLICT instead of being overwritten. */
  ifUpdatedAt?: string;
}

export const updateForm = (formId: string, body: FormEdit) =>
  unwrap(api.PUT("/api/v1/forms/{formId}", { ...path(formId), body })).then((r) => r.data.form);

export const duplicateForm = (formId: string) =>
  unwrap(api.POST("/api/v1/forms/{formId}/duplicate", { ...path(formId), body: {} })).then((r) => r.data.form);

export const setPublished = (formId: string, published: boolean) =>
  unwrap(
    published
      ? api.POST("/api/v1/forms/{formId}/publish", path(formId))
      : api.POST("/api/v1/forms/{formId}/unpublish", path(formId)),
  ).then((r) => r.data.form);

export const archiveForm = (formId: string) =>
  unwrap(api.DELETE("/api/v1/forms/{formId}", { params: { path: { formId }, query: { permanent: "false" } } }));

export const deleteFormPermanently = (formId: string) =>
  unwrap(api.DELETE("/api/v1/forms/{formId}", { params: { path: { formId }, query: { permanent: "true" } } })).then(
    (r) => r.data,
  );

export const ORIGIN_LABELS = { webhook: "Created by a source", builder: "Built here" } as const;
