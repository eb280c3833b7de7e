import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi, Link } from "@tanstack/react-router";
import { queryKeys } from "../../api/keys";
import { DELIVERY_STATUSES, type DeliveryStatus } from "../../api/types";
import { Button } from "../../components/ui/button";
import { FormError, SelectField } from "../../components/ui/field";
import { LoadMore } from "../../components/ui/load-more";
import { card, Loading, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { Attempts } from "./attempts";
import { type Delivery, deliveriesQuery, endpointsQuery, replayDelivery } from "./queries";
import { StatusBadge } from "./status-badge";
import { EVENT_LABELS, formatPrecise, STATUS_LABELS } from "./words";

const route = getRouteApi("/app/forms/$formId/webhooks/$endpointId");

const FILTERS = [
  { value: "", label: "All deliveries" },
  ...DELIVERY_STATUSES.map((status) => ({ value: status, label: `${STATUS_LABELS[status]} only` })),
];

function DeliveryItem({ formId, endpointId, delivery }: { formId: string; endpointId: string; delivery: Delivery }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const replay = useMutation({
    mutationFn: () => replayDelivery(formId, endpointId, delivery.id),
    onSuccess: async () => {
      toast("Replay queued: a new attempt is on its way");
      await queryClient.invalidateQueries({ queryKey: queryKeys.outboundWebhooks.ofForm(formId) });
    },
  });
  const event = EVENT_LABELS[delivery.eventType] ?? delivery.eventType;
  return (
    <li className={card} aria-label={`${event} ${delivery.id}`}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="flex flex-wrap items-center gap-2 font-medium">
            <StatusBadge status={delivery.status} inFlight={delivery.inFlight} />
            <span>{event}</span>
            {delivery.submissionId && (
              <Link to="/submissions/$submissionId" params={{ submissionId: delivery.submissionId }}>
                View the submission
              </Link>
            )}
          </h3>
          <Muted>
            Created <time dateTime={delivery.createdAt}>{formatPrecise(delivery.createdAt)}</time> · webhook-id{" "}
            <code className="break-all">{delivery.id}</code>
          </Muted>
          {delivery.deliveredAt && (
            <p className="text-sm">
              Delivered <time dateTime={delivery.deliveredAt}>{formatPrecise(delivery.deliveredAt)}</time>
            </p>
          )}
          {delivery.nextAttemptAt && (
            <p className="text-sm">
              Next retry <time dateTime={delivery.nextAttemptAt}>{formatPrecise(delivery.nextAttemptAt)}</time>
            </p>
          )}
          {delivery.lastError && <p className="text-sm">Ended without sending: {delivery.lastError}.</p>}
        </div>
        <Button
          variant="secondary"
          disabled={replay.isPending || delivery.inFlight}
          aria-label={`Replay ${event.toLowerCase()} ${delivery.id}`}
          onClick={() => replay.mutate()}
        >
          Replay
        </Button>
      </div>
      <div className="mt-3">
        <Attempts delivery={delivery} />
      </div>
      <FormError className="mt-2" message={replay.error?.message} />
    </li>
  );
}

/**
 * One endpoint's delivery log: newest first, a page at a time, optionally one status only.
 * `formName` is for the way back (given by web/src/app/delivery-log-page.tsx).
 */
export function DeliveryLogPage({ formName }: { formName: string | undefined }) {
  const { formId, endpointId } = route.useParams();
  const { status } = route.useSearch();
  const navigate = route.useNavigate();
  const endpoints = useQuery(endpointsQuery(formId));
  const log = useInfiniteQuery(deliveriesQuery(formId, endpointId, status));
  const endpoint = endpoints.data?.find((e) => e.id === endpointId);
  const deliveries = log.data?.pages.flatMap((page) => page.deliveries) ?? [];
  return (
    <>
      <PageHeader
        level={2}
        title="Delivery log"
        description={
          endpoint ? (
            <>
              {endpoint.description ? `${endpoint.description}: ` : ""}
              <span className="font-mono break-all">{endpoint.url}</span>
              {endpoint.isEnabled ? "" : " (disabled)"}
            </>
          ) : undefined
        }
      />
      <p className="mb-4 text-sm">
        <Link to="/forms/$formId/webhooks" params={{ formId }}>
          Back to the outbound webhooks{formName ? ` of ${formName}` : ""}
        </Link>
      </p>
      {endpoint && !endpoint.isEnabled && (
        <p className="mb-4 text-sm">
          This endpoint is disabled{endpoint.disabledReason ? `: ${endpoint.disabledReason}` : ""}. Enable it on the webhooks page
          before replaying a delivery.
        </p>
      )}
      <div className="mb-4 max-w-xs">
        <SelectField
          label="Show"
          options={FILTERS}
          value={status ?? ""}
          onChange={(e) =>
            void navigate({ search: e.target.value ? { status: e.target.value as DeliveryStatus } : {}, replace: true })
          }
        />
      </div>
      {log.isPending ? (
        <Loading />
      ) : log.isError ? (
        <FormError message={log.error.message} />
      ) : (
        <>
          {deliveries.length === 0 && !log.hasNextPage && (
            <Muted>
              {status ? `No ${STATUS_LABELS[status].toLowerCase()} deliveries.` : "Nothing was sent to this endpoint yet."}
            </Muted>
          )}
          <ul className="flex flex-col gap-3" aria-label="Deliveries">
            {deliveries.map((delivery) => (
              <DeliveryItem key={delivery.id} formId={formId} endpointId={endpointId} delivery={delivery} />
            ))}
          </ul>
          <LoadMore list={log} />
        </>
      )}
    </>
  );
}
