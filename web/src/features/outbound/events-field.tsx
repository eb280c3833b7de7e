import { useId } from "react";
import type { EndpointEvent } from "./queries";

/** The events an endpoint can receive, in the words the forms and rows use (docs/outbound-webhooks.md, "Events"). */
export const ENDPOINT_EVENT_LABELS: Record<EndpointEvent, string> = {
  "submission.created": "New submission",
  "submission.updated": "Status, owner or tags changed",
};
const EVENTS = Object.keys(ENDPOINT_EVENT_LABELS) as EndpointEvent[];

/** What an endpoint receives, in words ("New submission · Status, owner or tags changed"). */
export const eventsWords = (events: readonly EndpointEvent[]) => events.map((event) => ENDPOINT_EVENT_LABELS[event]).join(" · ");

/**
 * The events choice of the webhook and chat destination forms: one checkbox per event, in a
 * fieldset with its legend. At least one must stay ticked: the API answers 400 otherwise, shown here.
 */
export function EventsField({
  value,
  onChange,
  error,
}: {
  value: readonly EndpointEvent[];
  onChange: (events: EndpointEvent[]) => void;
  error: string | undefined;
}) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="text-sm font-medium">Events</legend>
      {EVENTS.map((event) => (
        <div key={event} className="mt-1 flex items-center gap-2">
          <input
            id={`${id}-${event}`}
            type="checkbox"
            checked={value.includes(event)}
            onChange={(e) => onChange(EVENTS.filter((x) => (x === event ? e.target.checked : value.includes(x))))}
          />
          <label htmlFor={`${id}-${event}`} className="text-sm">
            {ENDPOINT_EVENT_LABELS[event]}
          </label>
        </div>
      ))}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </fieldset>
  );
}
