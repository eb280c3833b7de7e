import { AppError, notFound } from "../errors";
import { newId, nowIso } from "../ids";
import type { Retention } from "../retention";
import { createLinkedForm, type FieldType, type Form, getForm } from "../store/forms";
import type { RawValue } from "../store/shapes";
import { getWebhook, type Webhook } from "../store/webhooks";
import { inferFieldType, labelFromKey } from "./mapping";

export interface FieldHints {
  /** Labels the sender gave its fields (the advertising platform's column_name), by key. */
  labels?: Record<string, string>;
  /** Types the sender's field ids imply (the platform's EMAIL column), by key. */
  types?: Record<string, FieldType>;
}

const usable = (form: Form | undefined): form is Form => form !== undefined && !form.deletedAt;

/** A hint for a key, read as an own property only (a key such as `toString` has none). */
export const hint = <T>(map: Record<string, T> | undefined, key: string): T | undefined =>
  map && Object.hasOwn(map, key) ? map[key] : undefined;

/** The webhook's linked form, read eventually consistently (the cheaper read), in parallel with the rest. */
export const readLinkedForm = (webhook: Webhook) => (webhook.formId ? getForm(webhook.formId) : Promise.resolve(undefined));

/**
 * The form a submission goes to: the webhook's linked form (`linked`, from readLinkedForm),
 * else a new auto-created one (spec 4.2, auto-created forms). The webhook was read strongly
 * consistently; when the eventually consistent read of its form misses, the form is read again
 * strongly before the link is replaced: a form created a moment ago by a racing request must not
 * be replaced by a second one. A linked form that is really gone (deleted, or being purged) is
 * replaced.
 */
export async function formFor(
  webhook: Webhook,
  linked: Form | undefined,
  name: string,
  data: Record<string, RawValue>,
  hints: FieldHints,
  /** A new form's retention: its site's defaults (docs/privacy.md, "Retention"). */
  retention: Retention,
): Promise<Form> {
  if (usable(linked)) return linked;
  if (webhook.formId) {
    const confirmed = await getForm(webhook.formId, { consistent: true });
    if (usable(confirmed)) return confirmed;
  }
  return createAutoForm(webhook, name, data, hints, retention);
}

/**
 * Creates the webhook's auto form and links it, in one transaction that holds only if the
 * webhook still points where it did (no form, or the gone one). Of two first submissions
 * arriving together one creates the form; the other finds the link taken and uses that form.
 * The transaction touches the webhook item, which concurrent submissions also write (their
 * count): on the real service it can be cancelled for a TransactionConflict, which the store
 * retries with backoff (DynamoDB Local never raises it; test/local-stack/lib/intake-store.test.ts injects it);
 * conflicts that outlast the retries are answered 503.
 */
async function createAutoForm(
  webhook: Webhook,
  name: string,
  data: Record<string, RawValue>,
  hints: FieldHints,
  retention: Retention,
): Promise<Form> {
  const now = nowIso();
  const fields = Object.create(null) as Form["fields"];
  Object.keys(data).forEach((key, i) => {
    fields[key] = {
      label: hint(hints.labels, key) ?? labelFromKey(key),
      type: hint(hints.types, key) ?? inferFieldType(key, data[key] ?? ""),
      required: false,
      order: i + 1,
    };
  });
  const form: Form = {
    id: newId("form"),
    orgId: webhook.orgId,
    siteId: webhook.siteId,
    name,
    origin: "webhook",
    createdByWebhookId: webhook.id,
    status: "published",
    fields,
    settings: { notifyEmails: [] },
    retention,
    archivedAt: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  let current = webhook;
  for (let round = 1; round <= 3; round++) {
    if (await linkIfUnchanged(form, current)) return form;
    // Another request linked a form first: read the link and the form as they are now.
    const winner = await getWebhook(webhook.id, { consistent: true });
    if (!winner) throw notFound("Webhook");
    const existing = winner.formId ? await getForm(winner.formId, { consistent: true }) : undefined;
    if (usable(existing)) return existing;
    // The link points at a form that is gone already: replace that one.
    current = winner;
  }
  throw busy();
}

/** Contention is transient: a 503 makes senders retry (a 4xx tells the ads platform to give up). */
const busy = () => new AppError("SERVICE_UNAVAILABLE", "The service is busy; retry shortly", undefined, { "retry-after": "1" });

async function linkIfUnchanged(form: Form, webhook: Webhook): Promise<boolean> {
  try {
    return (await createLinkedForm(form, webhook.id, webhook.formId)) === "OK";
  } catch (error) {
    if (error instanceof AppError && error.code === "CONFLICT") throw busy();
    throw error;
  }
}
