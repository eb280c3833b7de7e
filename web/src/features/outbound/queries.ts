import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import { queryKeys } from "../../api/keys";
import type { DeliveryStatus, Schema } from "../../api/types";

export type Endpoint = Schema<"OutboundWebhook">;
export type EndpointKind = Endpoint["kind"];
export type ChatKind = Exclude<EndpointKind, "webhook">;
export type ChatOptions = NonNullable<Endpoint["chat"]>;
export type EndpointEvent = Endpoint["events"][number];
export type Delivery = Schema<"Delivery">;

/** Deliveries per page of a log: a screenful; "Load more" reads on with the API's cursor. */
export const LOG_PAGE_SIZE = 25;

/** Endpoints a form may have, webhooks and chat destinations together (docs/outbound-webhooks.md, "Limits"). */
export const MAX_ENDPOINTS = 10;

/** Still moving: worth polling until it settles. */
export const isActive = (d: { status: DeliveryStatus; inFlight?: boolean }) =>
  d.status === "pending" || d.status === "retrying" || d.inFlight === true;

export const endpointsQuery = (formId: string) =>
  queryOptions({
    queryKey: queryKeys.outboundWebhooks.list(formId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/forms/{formId}/outbound-webhooks", { params: { path: { formId } } }))).data.outboundWebhooks,
    // A test event or a submission's delivery moves on its own: follow it until it settles.
    refetchInterval: (query) => (query.state.data?.some((e) => e.lastDelivery && isActive(e.lastDelivery)) ? 2_000 : false),
  });

export const deliveriesQuery = (formId: string, endpointId: string, status: DeliveryStatus | undefined) =>
  infiniteQueryOptions({
    queryKey: queryKeys.outboundWebhooks.deliveries(formId, endpointId, status),
    queryFn: async ({ pageParam }) =>
      (
        await unwrap(
          api.GET("/api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries", {
            params: {
              path: { formId, endpointId },
              query: { limit: LOG_PAGE_SIZE, ...(status ? { status } : {}), ...(pageParam ? { cursor: pageParam } : {}) },
            },
          }),
        )
      ).data,
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    refetchInterval: (query) => (query.state.data?.pages.some((page) => page.deliveries.some(isActive)) ? 2_000 : false),
  });

export const submissionDeliveriesQuery = (submissionId: string) =>
  queryOptions({
    queryKey: queryKeys.outboundWebhooks.ofSubmission(submissionId),
    queryFn: async () =>
      (await unwrap(api.GET("/api/v1/submissions/{submissionId}/deliveries", { params: { path: { submissionId } } }))).data
        .deliveries,
    refetchInterval: (query) => (query.state.data?.some(isActive) ? 3_000 : false),
  });

const endpointPath = (formId: string, endpointId: string) => ({ params: { path: { formId, endpointId } } });

export const createEndpoint = (
  formId: string,
  body: {
    kind?: EndpointKind;
    url: string;
    description?: string | null;
    chat?: Partial<ChatOptions>;
    events?: EndpointEvent[];
  },
) => unwrap(api.POST("/api/v1/forms/{formId}/outbound-webhooks", { params: { path: { formId } }, body })).then((r) => r.data);

export const updateEndpoint = (
  formId: string,
  endpointId: string,
  body: {
    url?: string;
    description?: string | null;
    isEnabled?: boolean;
    chat?: Partial<ChatOptions>;
    events?: EndpointEvent[];
  },
) => unwrap(api.PUT("/api/v1/forms/{formId}/outbound-webhooks/{endpointId}", { ...endpointPath(formId, endpointId), body }));

export const deleteEndpoint = (formId: string, endpointId: string) =>
  unwrap(api.DELETE("/api/v1/forms/{formId}/outbound-webhooks/{endpointId}", endpointPath(formId, endpointId)));

export const sendTestEvent = (formId: string, endpointId: string) =>
  unwrap(api.POST("/api/v1/forms/{formId}/outbound-webhooks/{endpointId}/test", endpointPath(formId, endpointId))).then(
    (r) => r.data.delivery,
  );

export const replayDelivery = (formId: string, endpointId: string, deliveryId: string) =>
  unwrap(
    api.POST("/api/v1/forms/{formId}/outbound-webhooks/{endpointId}/deliveries/{deliveryId}/retry", {
      params: { path: { formId, endpointId, deliveryId } },
    }),
  ).then((r) => r.data.delivery);
