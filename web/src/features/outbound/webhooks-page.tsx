import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { getRouteApi } from "@tanstack/react-router";
import { useState } from "react";
import { apiError } from "../../api/client";
import { queryKeys } from "../../api/keys";
import { Button } from "../../components/ui/button";
import { CloseButton, Modal } from "../../components/ui/dialog";
import { FormError } from "../../components/ui/field";
import { Loading, PageHeader } from "../../components/ui/page";
import { Muted } from "../../components/ui/text";
import { Destinations } from "./destinations";
import { EndpointForm, type EndpointInput } from "./endpoint-form";
import { EndpointRow } from "./endpoint-row";
import { createEndpoint, endpointsQuery, MAX_ENDPOINTS } from "./queries";
import { SigningSecret } from "./signing-secret";

const route = getRouteApi("/app/forms/$formId/webhooks");

/**
 * A form's outbound webhooks: add, test, enable or disable, edit, delete; each with its delivery
 * log. `formName` titles the page (given by web/src/app/webhooks-page.tsx).
 */
export function WebhooksPage({ formName }: { formName: string | undefined }) {
  const { formId } = route.useParams();
  const queryClient = useQueryClient();
  const endpoints = useQuery(endpointsQuery(formId));
  const [adding, setAdding] = useState(false);
  const create = useMutation({
    mutationFn: (input: EndpointInput) => createEndpoint(formId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.outboundWebhooks.ofForm(formId) }),
  });
  // The secret lives only in this mutation's answer: closing the dialog resets it, and nothing
  // stores it (no query cache, no URL), so it is gone after a close or a reload.
  const created = create.data;
  const close = () => {
    setAdding(false);
    create.reset();
  };
  const used = endpoints.data?.length ?? 0;
  const full = used >= MAX_ENDPOINTS;
  const webhooks = endpoints.data?.filter((e) => e.kind === "webhook") ?? [];
  const destinations = endpoints.data?.filter((e) => e.kind !== "webhook") ?? [];
  return (
    <>
      <PageHeader
        level={2}
        title={`Outbound webhooks${formName ? ` of ${formName}` : ""}`}
        description="Each new submission of this form (not spam) is sent, signed, to every enabled endpoint. Failed deliveries are retried for about three days; a 410 answer disables the endpoint."
        actions={
          <Button disabled={full} onClick={() => setAdding(true)}>
            Add endpoint
          </Button>
        }
      />
      <p className="mb-4 text-sm">
        {used} of {MAX_ENDPOINTS} endpoints and chat destinations used{full ? ": delete one to add another." : ""}
      </p>
      {endpoints.isPending ? (
        <Loading />
      ) : endpoints.isError ? (
        <FormError message={endpoints.error.message} />
      ) : webhooks.length === 0 ? (
        <Muted>No endpoints yet. Add your CRM's or automation's webhook URL to receive each new lead as it arrives.</Muted>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Endpoints">
          {webhooks.map((endpoint) => (
            <EndpointRow key={endpoint.id} formId={formId} endpoint={endpoint} />
          ))}
        </ul>
      )}
      {endpoints.isSuccess && <Destinations formId={formId} destinations={destinations} full={full} />}
      <Modal
        open={adding}
        onOpenChange={(open) => (open ? setAdding(true) : close())}
        title={created ? "Endpoint added" : "Add an endpoint"}
      >
        {created ? (
          <>
            <SigningSecret secret={created.signingSecret ?? ""} />
            <CloseButton label="Done" />
          </>
        ) : (
          <EndpointForm
            submitLabel="Add endpoint"
            pending={create.isPending}
            error={apiError(create.error)}
            onSubmit={(input) => create.mutate(input)}
          />
        )}
      </Modal>
    </>
  );
}
