import type { Principal } from "../auth/principal";
import { AppError, notFound } from "../errors";
import { findForm } from "../forms";
import { nowIso, randomBase62 } from "../ids";
import { isChatKind } from "../outbound/chat/kinds";
import { DEFAULT_CHAT_OPTIONS, MAX_FIELDS_LIMIT } from "../outbound/chat/message";
import { checkDestinationUrl, WrongPlatformUrl } from "../outbound/chat/urls";
import { newSigningSecret } from "../outbound/signing";
import { checkTargetUrl, MAX_URL_LENGTH, privateTargetsAllowed, RefusedTarget } from "../outbound/ssrf";
import { latestDelivery } from "../store/outbound-deliveries";
import {
  type ChatOptions,
  DEFAULT_ENDPOINT_EVENTS,
  ENDPOINT_EVENTS,
  ENDPOINT_KINDS,
  type EndpointEvent,
  type EndpointKind,
  insertEndpoint,
  kindOf,
  MAX_ENDPOINTS_PER_FORM,
  type OutboundEndpoint,
  updateEndpoint,
} from "../store/outbound-endpoints";
import * as z from "../validation";
import { endpointView, findEndpoint } from "./endpoints";

/**
 * Creating and changing a form's outbound endpoints, webhooks and chat destinations alike: a
 * chat destination's URL must be one of its platform's webhook URLs, and every URL passes the
 * SSRF guard.
 */

/** Request fields of the create and update routes (the SSRF guard checks the URL further). */
export const endpointUrl = /* @__PURE__ */ z.shared(() =>
  z.string().check(z.trim(), z.minLength(1), z.maxLength(MAX_URL_LENGTH)),
);
export const endpointDescription = /* @__PURE__ */ z.shared(() => z.nullable(z.string().check(z.trim(), z.maxLength(500))));
export const endpointKind = /* @__PURE__ */ z.shared(() => z.enum(ENDPOINT_KINDS));
/** A chat destination's filters and message options; each left out keeps its value (its default at creation). */
export const chatOptionsInput = /* @__PURE__ */ z.shared(() =>
  z.strictObject({
    minGrade: z.optional(z.nullable(z.enum(["warm", "hot"]))),
    includeFieldValues: z.optional(z.boolean()),
    maxFields: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(MAX_FIELDS_LIMIT))),
  }),
);
type ChatOptionsInput = z.output<typeof chatOptionsInput>;
/** The events an endpoint receives (docs/outbound-webhooks.md, "Events"): at least one, each once. */
export const endpointEvents = /* @__PURE__ */ z.shared(() =>
  z.array(z.enum(ENDPOINT_EVENTS)).check(
    z.minLength(1, "Choose at least one event"),
    z.refine((list) => new Set(list).size === list.length, "Each event may be listed only once"),
  ),
);

export const newEndpointId = () => `ep_${randomBase62(22)}`;

async function checkedUrl(kind: EndpointKind, url: string): Promise<string> {
  try {
    if (isChatKind(kind)) checkDestinationUrl(kind, url, privateTargetsAllowed());
    return (await checkTargetUrl(url)).toString();
  } catch (error) {
    if (error instanceof WrongPlatformUrl)
      throw new AppError("DESTINATION_URL_NOT_ALLOWED", error.message, [{ path: "url", message: error.message }]);
    if (error instanceof RefusedTarget) throw new AppError("OUTBOUND_WEBHOOK_URL_NOT_ALLOWED", error.message);
    throw error;
  }
}

/** Chat options apply to chat destinations only: on a webhook they are a mistake worth saying. */
function chatOptions(kind: EndpointKind, input: ChatOptionsInput | undefined, current?: ChatOptions): ChatOptions | undefined {
  if (!isChatKind(kind)) {
    if (input !== undefined) {
      const message = "Chat options apply to chat destinations (kind slack, teams, discord or google_chat), not to webhooks";
      throw new AppError("VALIDATION_ERROR", message, [{ path: "chat", message }]);
    }
    return undefined;
  }
  const base = current ?? DEFAULT_CHAT_OPTIONS;
  return {
    minGrade: input?.minGrade !== undefined ? input.minGrade : base.minGrade,
    includeFieldValues: input?.includeFieldValues ?? base.includeFieldValues,
    maxFields: input?.maxFields ?? base.maxFields,
  };
}

export async function createEndpoint(
  principal: Principal,
  formId: string,
  input: {
    kind?: EndpointKind | undefined;
    url: string;
    description?: string | null | undefined;
    chat?: ChatOptionsInput | undefined;
    events?: EndpointEvent[] | undefined;
  },
) {
  const form = await findForm(principal, formId);
  const kind = input.kind ?? "webhook";
  const chat = chatOptions(kind, input.chat);
  const url = await checkedUrl(kind, input.url);
  const now = nowIso();
  const endpoint: OutboundEndpoint = {
    id: newEndpointId(),
    kind,
    formId: form.id,
    orgId: form.orgId,
    siteId: form.siteId,
    url,
    description: input.description ?? null,
    isEnabled: true,
    // A chat platform verifies no signature: its URL is the secret.
    signingSecret: chat ? null : newSigningSecret(),
    ...(chat ? { chat } : {}),
    events: input.events ?? [...DEFAULT_ENDPOINT_EVENTS],
    disabledReason: null,
    disabledAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await insertEndpoint(endpoint)) === "LIMIT_REACHED") {
    throw new AppError(
      "OUTBOUND_WEBHOOK_LIMIT_REACHED",
      `A form can have at most ${MAX_ENDPOINTS_PER_FORM} outbound webhooks and chat destinations; delete one first`,
    );
  }
  const view = endpointView(endpoint);
  return {
    id: view.id,
    formId: view.formId,
    kind: view.kind,
    url: view.url,
    description: view.description,
    isEnabled: view.isEnabled,
    signingSecret: endpoint.signingSecret,
    chat: view.chat,
    events: view.events,
    createdAt: view.createdAt,
  };
}

export interface EndpointUpdate {
  url?: string | undefined;
  description?: string | null | undefined;
  isEnabled?: boolean | undefined;
  chat?: ChatOptionsInput | undefined;
  events?: EndpointEvent[] | undefined;
}

export async function editEndpoint(principal: Principal, formId: string, endpointId: string, update: EndpointUpdate) {
  const endpoint = await findEndpoint(principal, formId, endpointId);
  const kind = kindOf(endpoint);
  const chat = update.chat !== undefined ? chatOptions(kind, update.chat, endpoint.chat) : undefined;
  const url = update.url !== undefined ? await checkedUrl(kind, update.url) : undefined;
  const reenable = update.isEnabled === true && !endpoint.isEnabled;
  const saved = await updateEndpoint(
    endpoint.formId,
    endpoint.id,
    {
      ...(url !== undefined ? { url } : {}),
      ...(update.description !== undefined ? { description: update.description } : {}),
      ...(update.isEnabled !== undefined ? { isEnabled: update.isEnabled } : {}),
      ...(chat !== undefined ? { chat } : {}),
      ...(update.events !== undefined ? { events: update.events } : {}),
      ...(reenable ? { disabledReason: null, disabledAt: null } : {}),
    },
    nowIso(),
  );
  if (!saved) throw notFound("Outbound webhook");
  return endpointView(saved, (await latestDelivery(saved.id)) ?? null);
}
