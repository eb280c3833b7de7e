import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { Modal } from "../../components/ui/dialog";
import { Muted } from "../../components/ui/text";
import { useToast } from "../../components/ui/toast";
import { DestinationForm, type DestinationInput } from "./destination-form";
import { EndpointRow } from "./endpoint-row";
import { createEndpoint, type Endpoint } from "./queries";

/**
 * A form's chat destinations (Slack, Microsoft Teams, Discord, Google Chat), beside its outbound
 * webhooks on the same page: the same rows (test, enable, edit, delete, delivery log), a form of
 * their own (docs/notifications.md).
 */
export function Destinations({ formId, destinations, full }: { formId: string; destinations: Endpoint[]; full: boolean }) {
  const queryClient = useQueryClient();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  const create = useMutation({
    mutationFn: (input: DestinationInput) =>
      createEndpoint(formId, {
        kind: input.kind,
        url: input.url,
        description: input.description,
        chat: input.chat,
        events: input.events,
      }),
    onSuccess: async () => {
      setAdding(false);
      create.reset();
      toast("Chat destination added");
      await queryClient.invalidateQueries({ queryKey: queryKeys.outboundWebhooks.ofForm(formId) });
    },
  });
  return (
    <section aria-labelledby="chat-destinations" className="mt-10">
      <div className="mb-3 flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="chat-destinations" className="text-lg font-semibold">
            Chat destinations
          </h2>
          <Muted>
            New leads (never spam) posted to a Slack, Microsoft Teams, Discord or Google Chat channel, retried like webhooks. A
            destination whose webhook was deleted is disabled.
          </Muted>
        </div>
        <Button disabled={full} onClick={() => setAdding(true)}>
          Add destination
        </Button>
      </div>
      {destinations.length === 0 ? (
        <Muted>No chat destinations yet. Add one to see each new lead in your team's channel.</Muted>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Chat destinations">
          {destinations.map((destination) => (
            <EndpointRow key={destination.id} formId={formId} endpoint={destination} />
          ))}
        </ul>
      )}
      <Modal
        open={adding}
        onOpenChange={(open) => {
          setAdding(open);
          if (!open) create.reset();
        }}
        title="Add a chat destination"
      >
        <DestinationForm
          submitLabel="Add destination"
          pending={create.isPending}
          error={apiError(create.error)}
          onSubmit={(input) => create.mutate(input)}
        />
      </Modal>
    </section>
  );
}
