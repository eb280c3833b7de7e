import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { ConfirmButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { card } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { formatAgo, formatDateTime } from "../../lib/format";
import { chatWords, DestinationForm, type DestinationInput, destinationEdit } from "./destination-form";
import { EndpointForm, type EndpointInput } from "./endpoint-form";
import { eventsWords } from "./events-field";
import { deleteEndpoint, type Endpoint, isActive, sendTestEvent, updateEndpoint } from "./queries";
import { StatusBadge } from "./status-badge";
import { PLATFORMS, responseWords } from "./words";

/** The newest delivery of an endpoint, in one line. */
function LastDelivery({ endpoint }: { endpoint: Endpoint }) {
  const last = endpoint.lastDelivery;
  if (!last) return <>Nothing sent yet</>;
  return (
    <>
      Last delivery: <StatusBadge status={last.status} />
      {last.lastStatusCode !== null && ` ${responseWords(last.lastStatusCode)}`}
      {" · "}
      <time dateTime={last.createdAt} title={formatDateTime(last.createdAt)}>
        {formatAgo(last.createdAt)}
      </time>
      {last.nextAttemptAt && ` · next attempt ${formatDateTime(last.nextAttemptAt)}`}
    </>
  );
}

export function EndpointRow({ formId, endpoint }: { formId: string; endpoint: Endpoint }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [editing, setEditing] = useState(false);
  const [tested, setTested] = useState(false);
  const chat = endpoint.kind === "webhook" ? null : endpoint.kind;
  const name = endpoint.description ?? (chat ? PLATFORMS[chat].label : endpoint.url);
  const testWord = chat ? "test message" : "test event";
  const refresh = () => queryClient.invalidateQueries({ queryKey: queryKeys.outboundWebhooks.ofForm(formId) });
  // One more read once the newest delivery settles. The list reads an endpoint, then its newest
  // delivery; an attempt answered 410 disables the endpoint, then records the delivery failed
  // (lib/outbound/attempts.ts). A read that falls between the two shows the delivery settled and
  // the endpoint still enabled, and polling, which follows only moving deliveries, stops there.
  // A read after the settle sees both writes.
  const moving = endpoint.lastDelivery ? isActive(endpoint.lastDelivery) : false;
  const lookAgain = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the newest delivery or its motion changes, not on every render
  useEffect(() => {
    if (moving) lookAgain.current = true;
    else if (lookAgain.current) {
      lookAgain.current = false;
      void refresh();
    }
  }, [moving, endpoint.lastDelivery?.id]);
  const act = useMutation({
    mutationFn: async (action: "enable" | "disable" | "delete" | "test") => {
      if (action === "enable" || action === "disable")
        await updateEndpoint(formId, endpoint.id, { isEnabled: action === "enable" });
      if (action === "delete") await deleteEndpoint(formId, endpoint.id);
      if (action === "test") await sendTestEvent(formId, endpoint.id);
      return action;
    },
    onMutate: () => setTested(false),
    onSuccess: async (action) => {
      if (action === "test") {
        setTested(true);
        // Its delivery may settle before the next read: that read is then the one to look again after.
        lookAgain.current = true;
      } else toast(`${name} ${{ enable: "enabled", disable: "disabled", delete: "deleted" }[action]}`);
      await refresh();
    },
  });
  const edit = useMutation({
    mutationFn: (input: EndpointInput | DestinationInput) =>
      updateEndpoint(formId, endpoint.id, "kind" in input ? destinationEdit(input) : input),
    onSuccess: async () => {
      setEditing(false);
      toast("Endpoint saved");
      await refresh();
    },
  });
  const error = apiError(act.error);
  return (
    <li className={card} aria-label={name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <h3 className="font-medium break-all">{endpoint.description ?? (chat ? PLATFORMS[chat].label : "Endpoint")}</h3>
          {chat && <p className="text-sm">{chatWords(endpoint)}</p>}
          <p className="text-sm">Events: {eventsWords(endpoint.events)}</p>
          <p className="font-mono text-sm break-all">{endpoint.url}</p>
          <Muted>{endpoint.isEnabled ? "Enabled" : "Disabled"}</Muted>
          {!endpoint.isEnabled && endpoint.disabledReason && (
            <p className="mt-1 text-sm">
              Inlet disabled it
              {endpoint.disabledAt && (
                <>
                  {" on "}
                  <time dateTime={endpoint.disabledAt}>{formatDateTime(endpoint.disabledAt)}</time>
                </>
              )}
              : {endpoint.disabledReason}.{" "}
              {chat
                ? "Its webhook no longer exists: create a new one, save its URL here (Edit), then enable the destination."
                : "The receiver said it no longer wants these requests; fix it, then enable the endpoint again."}
            </p>
          )}
          <p className="mt-1 text-sm">
            <LastDelivery endpoint={endpoint} />
          </p>
          <p className="mt-1 text-sm">
            <Link to="/forms/$formId/webhooks/$endpointId" params={{ formId, endpointId: endpoint.id }} search={{}}>
              Delivery log<span className="sr-only"> of {name}</span>
            </Link>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            variant="secondary"
            disabled={act.isPending || !endpoint.isEnabled}
            title={endpoint.isEnabled ? undefined : `Enable it to send a ${testWord}`}
            onClick={() => act.mutate("test")}
          >
            Send {testWord}
          </Button>
          <Button
            variant="secondary"
            disabled={act.isPending}
            onClick={() => act.mutate(endpoint.isEnabled ? "disable" : "enable")}
          >
            {endpoint.isEnabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="secondary" onClick={() => setEditing(true)}>
            Edit
          </Button>
          <ConfirmButton
            label="Delete"
            variant="danger"
            title={`Delete the endpoint ${name}?`}
            description={
              <>
                <p>
                  Inlet stops sending to <code className="break-all">{endpoint.url}</code> at once. Deliveries still waiting for a
                  retry end as failed, and its delivery log is no longer shown here.
                </p>
                {!chat && (
                  <p className="mt-2">Its signing secret stops being used: adding the URL again gives it a new secret.</p>
                )}
              </>
            }
            confirmLabel="Delete endpoint"
            onConfirm={() => act.mutate("delete")}
          />
        </div>
      </div>
      {!endpoint.isEnabled && !endpoint.disabledReason && (
        <Muted className="mt-2">Enable it to send {testWord}s and new submissions.</Muted>
      )}
      {tested && (
        <p role="status" className="mt-2 text-sm">
          {chat ? "Test message sent" : "Test event sent"}. Its result shows above and in the{" "}
          <Link to="/forms/$formId/webhooks/$endpointId" params={{ formId, endpointId: endpoint.id }} search={{}}>
            delivery log
          </Link>
          .
        </p>
      )}
      <FormError className="mt-2" message={error?.message} />
      <Modal
        open={editing}
        onOpenChange={(open) => {
          setEditing(open);
          if (!open) edit.reset();
        }}
        title={`Edit ${name}`}
      >
        {chat ? (
          <DestinationForm
            initial={{
              kind: chat,
              description: endpoint.description,
              chat: endpoint.chat ?? { minGrade: null, includeFieldValues: true, maxFields: 10 },
              events: endpoint.events,
            }}
            submitLabel="Save"
            pending={edit.isPending}
            error={apiError(edit.error)}
            onSubmit={(input) => edit.mutate(input)}
          />
        ) : (
          <EndpointForm
            initial={{ url: endpoint.url, description: endpoint.description, events: endpoint.events }}
            submitLabel="Save"
            pending={edit.isPending}
            error={apiError(edit.error)}
            onSubmit={(input) => edit.mutate(input)}
          />
        )}
      </Modal>
    </li>
  );
}
