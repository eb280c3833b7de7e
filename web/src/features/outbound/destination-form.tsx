import { useId, useState } from "react";
import type { ApiError } from "../../api/client";
import { Button } from "../../components/ui/button";
import { FormError, SelectField, submitWith, TextField } from "../../components/ui/field";
import { EventsField } from "./events-field";
import type { ChatKind, ChatOptions, Endpoint, EndpointEvent } from "./queries";
import { PLATFORMS } from "./words";

export interface DestinationInput {
  kind: ChatKind;
  /** Empty when editing: the stored URL is kept (it is a secret and never shown whole). */
  url: string;
  description: string | null;
  chat: ChatOptions;
  events: EndpointEvent[];
}

const GRADES = [
  { value: "", label: "Every lead" },
  { value: "warm", label: "Warm and hot leads" },
  { value: "hot", label: "Hot leads only" },
] as const;

/**
 * A chat destination: its platform (fixed once created), webhook URL, name and filters. The URL
 * refusals (`DESTINATION_URL_NOT_ALLOWED`, `OUTBOUND_WEBHOOK_URL_NOT_ALLOWED`) show beside it.
 */
export function DestinationForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial?: Omit<DestinationInput, "url">;
  submitLabel: string;
  pending: boolean;
  error: ApiError | undefined;
  onSubmit: (input: DestinationInput) => void;
}) {
  const [kind, setKind] = useState<ChatKind>(initial?.kind ?? "slack");
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [minGrade, setMinGrade] = useState<string>(initial?.chat.minGrade ?? "");
  const [values, setValues] = useState(initial?.chat.includeFieldValues ?? true);
  const [maxFields, setMaxFields] = useState(String(initial?.chat.maxFields ?? 10));
  const [events, setEvents] = useState<EndpointEvent[]>(initial?.events ?? ["submission.created"]);
  const valuesId = useId();
  const urlCode = error?.code === "DESTINATION_URL_NOT_ALLOWED" || error?.code === "OUTBOUND_WEBHOOK_URL_NOT_ALLOWED";
  const platform = PLATFORMS[kind];
  const submit = submitWith(() =>
    onSubmit({
      kind,
      url: url.trim(),
      description: description.trim() === "" ? null : description.trim(),
      chat: {
        minGrade: minGrade === "warm" || minGrade === "hot" ? minGrade : null,
        includeFieldValues: values,
        maxFields: Number(maxFields),
      },
      events,
    }),
  );
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      <FormError message={urlCode ? undefined : error?.formMessage} />
      {!initial && (
        <SelectField
          label="Platform"
          value={kind}
          onChange={(e) => setKind(e.target.value as ChatKind)}
          options={Object.entries(PLATFORMS).map(([value, p]) => ({ value, label: p.label }))}
        />
      )}
      <TextField
        label={initial ? "New webhook URL (leave empty to keep the current one)" : "Webhook URL"}
        type="url"
        required={!initial}
        autoComplete="off"
        spellCheck={false}
        placeholder={platform.placeholder}
        hint={`${platform.hint} The URL is a secret: Inlet shows it masked from now on.`}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        error={urlCode ? (error?.field("url") ?? error?.message) : error?.field("url")}
      />
      <TextField
        label="Name (optional)"
        placeholder="#sales"
        maxLength={500}
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        error={error?.field("description")}
      />
      <EventsField value={events} onChange={setEvents} error={error?.field("events")} />
      <SelectField label="Send" value={minGrade} onChange={(e) => setMinGrade(e.target.value)} options={GRADES} />
      <div className="flex items-start gap-2">
        <input id={valuesId} type="checkbox" className="mt-1" checked={values} onChange={(e) => setValues(e.target.checked)} />
        <label htmlFor={valuesId} className="text-sm">
          Include the submitter's name, email and field values
          <span className="block text-xs text-slate-600 dark:text-slate-400">
            Unticked, the message only says a lead arrived, with its grade and a link: no personal data in the chat.
          </span>
        </label>
      </div>
      {values && (
        <TextField
          label="Fields shown (0 to 25)"
          type="number"
          min={0}
          max={25}
          value={maxFields}
          onChange={(e) => setMaxFields(e.target.value)}
          error={error?.field("chat.maxFields")}
        />
      )}
      <p className="text-xs text-slate-600 dark:text-slate-400">Spam is never sent to a chat.</p>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </form>
  );
}

const GRADE_FILTER = { warm: "warm and hot leads", hot: "hot leads only" } as const;

/** A chat destination's platform and filters, in words. */
export function chatWords(endpoint: Endpoint): string | null {
  if (endpoint.kind === "webhook" || !endpoint.chat) return null;
  const { minGrade, includeFieldValues, maxFields } = endpoint.chat;
  return [
    PLATFORMS[endpoint.kind].label,
    minGrade ? GRADE_FILTER[minGrade] : "every lead",
    includeFieldValues ? `name, email and up to ${maxFields} fields` : "no field values",
  ].join(" · ");
}

/** An edit's body: a destination keeps its URL when none is typed (the stored one is never shown). */
export const destinationEdit = ({ url, description, chat, events }: DestinationInput) => ({
  ...(url ? { url } : {}),
  description,
  chat,
  events,
});
