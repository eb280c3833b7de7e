import type { DeliveryStatus } from "../../api/types";
import { STATUS_BADGE, STATUS_LABELS } from "./words";

/** A delivery's status as a word in a bordered badge. */
export function StatusBadge({ status, inFlight = false }: { status: DeliveryStatus; inFlight?: boolean }) {
  return (
    <span className={`inline-block rounded border px-2 py-0.5 text-xs font-medium ${STATUS_BADGE[status]}`}>
      {inFlight ? "Sending now" : STATUS_LABELS[status]}
    </span>
  );
}
