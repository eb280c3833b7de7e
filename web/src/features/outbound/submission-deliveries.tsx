import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { card, Loading } from "../../components/ui/page";
import { formatDateTime } from "../../lib/format";
import { submissionDeliveriesQuery } from "./queries";
import { StatusBadge } from "./status-badge";
import { EVENT_LABELS, responseWords } from "./words";

/**
 * The outbound deliveries of one submission, for its detail page: did each endpoint (the CRM,
 * the automation) get it? Each links to that endpoint's delivery log.
 */
export function SubmissionDeliveries({ submissionId, formId }: { submissionId: string; formId: string }) {
  const deliveries = useQuery(submissionDeliveriesQuery(submissionId));
  return (
    <section className={card} aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading" className="mb-3 text-lg font-medium">
        Outbound webhooks
      </h2>
      {deliveries.isPending ? (
        <Loading />
      ) : deliveries.isError ? (
        <p className="text-sm">{deliveries.error.message}</p>
      ) : deliveries.data.length === 0 ? (
        <p className="text-sm">
          Not sent to any outbound webhook.{" "}
          <Link to="/forms/$formId/webhooks" params={{ formId }}>
            Outbound webhooks of this form
          </Link>
        </p>
      ) : (
        <ul className="flex flex-col gap-3 text-sm">
          {deliveries.data.map((delivery) => {
            const last = delivery.attempts.at(-1);
            return (
              <li key={delivery.id}>
                <p className="flex flex-wrap items-center gap-2">
                  <StatusBadge status={delivery.status} inFlight={delivery.inFlight} />
                  <span className="font-mono break-all">{delivery.endpoint.description ?? delivery.endpoint.url}</span>
                  <span>{EVENT_LABELS[delivery.eventType] ?? delivery.eventType}</span>
                </p>
                <p className="text-slate-600 dark:text-slate-300">
                  {delivery.attemptCount === 1 ? "1 attempt" : `${delivery.attemptCount} attempts`}
                  {last && ` · last ${responseWords(last.statusCode)} at ${formatDateTime(last.attemptedAt)}`}
                  {delivery.nextAttemptAt && ` · next retry ${formatDateTime(delivery.nextAttemptAt)}`}
                  {delivery.lastError && ` · ${delivery.lastError}`}
                </p>
                <Link to="/forms/$formId/webhooks/$endpointId" params={{ formId, endpointId: delivery.endpoint.id }} search={{}}>
                  Delivery log<span className="sr-only"> of {delivery.endpoint.description ?? delivery.endpoint.url}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
