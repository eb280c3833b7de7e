import { useState } from "react";
import type { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, submitWith, TextField } from "../../components/ui/field";
import { EventsField } from "./events-field";
import type { EndpointEvent } from "./queries";

export interface EndpointInput {
  url: string;
  description: string | null;
  events: EndpointEvent[];
}

/**
 * The URL and description of an endpoint, to add or to edit. The SSRF guard's refusal
 * (`OUTBOUND_WEBHOOK_URL_NOT_ALLOWED`) is about the URL, so it shows beside that field, in words.
 */
export function EndpointForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: EndpointInput;
  submitLabel: string;
  pending: boolean;
  error: ApiError | undefined;
  onSubmit: (input: EndpointInput) => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [events, setEvents] = useState<EndpointEvent[]>(initial?.events ?? ["submission.created"]);
  const urlRefused = error?.code === "OUTBOUND_WEBHOOK_URL_NOT_ALLOWED" ? error.message : undefined;
  const submit = submitWith(() =>
    onSubmit({ url: url.trim(), description: description.trim() === "" ? null : description.trim(), events }),
  );
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={urlRefused ? undefined : error?.formMessage} />
      <TextField
        label="Endpoint URL"
        type="url"
        required
        placeholder="https://crm.example.com/hooks/inlet"
        hint="Your receiver's public http(s) address. Inlet POSTs the events you choose there, signed."
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={urlRefused ?? error?.field("url")}
      />
      <TextField
        label="Description (optional)"
        placeholder="CRM sync"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={error?.field("description")}
      />
      <EventsField value={events} onChange={setEvents} error={error?.field("events")} />
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}
