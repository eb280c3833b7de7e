import type { Principal } from "../auth/principal";
import { AppError, notFound } from "../errors";
import { findForm } from "../forms";
import { nowIso, randomBase62 } from "../ids";
import { newSigningSecret } from "../outbound/signing";
import { checkTargetUrl, MAX_URL_LENGTH, RefusedTarget } from "../outbound/ssrf";
import { latestDelivery } from "../store/outbound-deliveries";
import { insertEndpoint, MAX_ENDPOINTS_PER_FORM, type OutboundEndpoint, updateEndpoint } from "../store/outbound-endpoints";
import * as z from "../validation";
import { endpointView, findEndpoint } from "./endpoints";

/** Creating and changing a form's outbound webhooks: the URL passes the SSRF guard first. */

/** Request fields of the create and update routes (the SSRF guard checks the URL further). */
export const endpointUrl = /* @__PURE__ */ z.shared(() =>
  z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
);
export const endpointDescription = /* @__PURE__ */ z.shared(() => z.nullable(z.string().check(z.trim(), z.maxLength(500))));

export const newEndpointId = () => `ep_${randomBase62(22)}`;

async function checkedUrl(url: string): Promise<string> {
  try {
    return (await checkTargetUrl(url)).toString();
  } catch (error) {
    if (error instanceof RefusedTarget) throw new AppError("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", error.message);
    throw error;
  }
}

export async function createEndpoint(principal: Principal, formId: string, input: { url: string; description?: string | null }) {
  const form = await findForm(principal, formId);
  const url = await checkedUrl(input.url);
  const now = nowIso();
  const endpoint: OutboundEndpoint = {
    id: newEndpointId(),
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    url,
    description: input.description ?? null,
    isEnabled: true,
    signingSecret: newSigningSecret(),
    disabledReason: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await insertEndpoint(endpoint)) === "LIMIT_REACHED") {
    throw new AppError(
      "OUTBOUND_WEBHOOK_LIMIT_REACHED",
      `A form can have at most ${MAX_ENDPOINTS_PER_FORM} outbound webhooks; delete one first`,
    );
  }
  return {
    id: endpoint.id,
    formId: endpoint.formId,
    url: endpoint.url,
    description: endpoint.description,
    isEnabled: endpoint.isEnabled,
    signingSecret: endpoint.signingSecret,
    createdAt: endpoint.createdAt,
  };
}

export interface EndpointUpdate {
  url?: string;
  description?: string | null;
  isEnabled?: boolean;
}

export async function editEndpoint(principal: Principal, formId: string, endpointId: string, update: EndpointUpdate) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const url = update.url !== undefined ? await checkedUrl(update.url) : undefined;
  const reenable = update.isEnabled === true && !endpoint.isEnabled;
  const saved = await updateEndpoint(
    endpoint.formId,
    endpoint.id,
    {
      ...(url !== undefined ? { url } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.isEnabled !== undefined ? { isEnabled: update.isEnabled } : {}),
      ...(reenable ? { disabledReason: null, disabledAt: null } : {}),
    },
    nowIso(),
  );
  if (!saved) throw notFound("Outbound webhook");
  return endpointView(saved, (await latestDelivery(saved.id)) ?? null);
}
