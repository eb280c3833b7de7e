import { audited } from "./audit";
import type { Principal } from "./auth/principal";
import { AppError, notFound } from "./errors";
import type { FieldInput, SettingsInput } from "./form-inputs";
import { type FormWriter, retentionChange, retentionJobView } from "./form-retention";
import { newId, nowIso } from "./ids";
import { redirectProblem } from "./intake/redirect";
import { confirmationOf } from "./notifications/confirmation";
import { notificationSuppressions } from "./notifications/suppression";
import { defaultRetentionOf, type Retention, retentionOf } from "./retention";
import { findSite } from "./sites";
import type { AuditEntryInput } from "./store/audit-log";
import { updateFormAudited } from "./store/form-audited-update";
import { deleteFormPermanently } from "./store/form-deletion";
import {
  type Form,
  type FormChanges,
  type FormField,
  type FormSettings,
  getForm,
  listSiteForms,
  putForm,
  updateForm,
} from "./store/forms";
import type { Site } from "./store/sites";
import { type FormCounts, getFormCounts, getFormsCounts, statusCountsOf } from "./store/submission-counts";
import { listSiteWebhooks } from "./store/webhooks";

/** Fields by key, without a prototype (keys are user data); `order` defaults to the list position. */
function fieldMap(inputs: FieldInput[]): Record<string, FormField> {
  const map = Object.create(null) as Record<string, FormField>;
  inputs.forEach((f, i) => {
    map[f.key] = { label: f.label, type: f.type, required: f.required ?? false, order: f.order ?? i + 1 };
  });
  return map;
}

/** Lower-cased and without repeats: one notification per address. */
const notifyList = (emails: string[]) => [...new Set(emails.map((e) => e.toLowerCase()))];

/**
 * A form's redirect follows `_redirect`'s rule (docs/intake.md, "Redirects"): an absolute http(s)
 * URL without credentials, on the site's domain or a subdomain when the site has one.
 */
function checkedRedirect(raw: string, site: Site): string {
  const problem = redirectProblem(raw, site.domain);
  if (typeof problem !== "string") return problem.href;
  const message = `The redirect URL ${problem}`;
  throw new AppError("VALIDATION_ERROR", message, [{ path: "settings.redirectUrl", message }]);
}

/**
 * A confirmation is sent only on a site with a domain (docs/email.md, "Confirmation emails"):
 * turning it on for a form whose site has none is refused, so the owner learns it now rather
 * than from submitters who never get one.
 */
function checkedConfirmation(current: FormSettings, input: SettingsInput | undefined, site: Site | undefined) {
  if (!input?.confirmation) return current.confirmation;
  const merged = { ...confirmationOf({ settings: current }), ...definedOnly(input.confirmation) };
  if (input.confirmation.enabled === true && site && !site.domain) {
    const message = "A confirmation email needs the site's domain: set it in the site's settings first";
    throw new AppError("SITE_DOMAIN_REQUIRED", message, [{ path: "settings.confirmation.enabled", message }]);
  }
  return merged;
}

const definedOnly = <T extends object>(input: T) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== undefined)) as Partial<T>;

function mergeSettings(current: FormSettings, input: SettingsInput | undefined, site: Site | undefined): FormSettings {
  const merged = { ...current, ...(input?.notifyEmails ? { notifyEmails: notifyList(input.notifyEmails) } : {}) };
  if (input?.redirectUrl === null) merged.redirectUrl = null;
  else if (input?.redirectUrl !== undefined && site) merged.redirectUrl = checkedRedirect(input.redirectUrl, site);
  const confirmation = checkedConfirmation(current, input, site);
  if (confirmation) merged.confirmation = confirmation;
  if (input?.forwardOnly !== undefined) merged.forwardOnly = input.forwardOnly;
  return merged;
}

/**
 * The API's settings: every key present (forms saved before `redirectUrl` existed lack it; a form
 * that never saved a confirmation answers the default one, off).
 */
const settingsView = (settings: FormSettings) => ({
  notifyEmails: settings.notifyEmails,
  redirectUrl: settings.redirectUrl ?? null,
  confirmation: confirmationOf({ settings }),
  forwardOnly: settings.forwardOnly === true,
});

/** The API's ordered field list: by `order`, then key. */
export const fieldList = (fields: Form["fields"]) =>
  Object.entries(fields)
    .map(([key, f]) => ({ key, label: f.label, type: f.type, required: f.required, order: f.order }))
    .sort((a, b) => a.order - b.order || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/** The form `formId` of the caller's organization, not being purged, or 404. */
export async function findForm(principal: Principal, formId: string): Promise<Form> {
  const form = await getForm(formId);
  if (!form || form.orgId !== principal.orgId || form.deletedAt) throw notFound("Form");
  return form;
}

/** Webhook ids feeding each form of a site (at most 50 webhooks per site: one query). */
async function linkedWebhooks(siteId: string): Promise<Map<string, string[]>> {
  const byForm = new Map<string, string[]>();
  for (const webhook of await listSiteWebhooks(siteId)) {
    if (!webhook.formId) continue;
    byForm.set(webhook.formId, [...(byForm.get(webhook.formId) ?? []), webhook.id]);
  }
  return byForm;
}

/**
 * The forms' counts: one GetItem for one form, one BatchGetItem for a page (a page holds at most
 * 100 forms), whatever their sizes (docs/data-model.md, "Counting a form's submissions").
 */
async function countsOf(forms: Form[]): Promise<Map<string, FormCounts>> {
  if (forms.length === 0) return new Map();
  if (forms.length === 1) {
    const [form] = forms as [Form];
    return new Map([[form.id, await getFormCounts(form.id)]]);
  }
  return getFormsCounts(forms.map((f) => f.id));
}

/** `counted: false` leaves the counts out (null). */
async function listViews(forms: Form[], siteId: string, counted = true) {
  const [webhooks, counts] = await Promise.all([
    linkedWebhooks(siteId),
    counted ? countsOf(forms) : new Map<string, FormCounts>(),
  ]);
  return forms.map((form) => ({
    id: form.id,
    siteId: form.siteId,
    name: form.name,
    origin: form.origin,
    webhookIds: webhooks.get(form.id) ?? [],
    fieldCount: Object.keys(form.fields).length,
    submissionCount: counted ? (counts.get(form.id)?.inbox ?? 0) : null,
    spamCount: counted ? (counts.get(form.id)?.spam ?? 0) : null,
    counts: counted ? { statuses: counts.get(form.id)?.statuses ?? statusCountsOf(undefined) } : null,
    status: form.status,
    archivedAt: form.archivedAt,
    createdAt: form.createdAt,
    updatedAt: form.updatedAt,
  }));
}

async function detailView(form: Form, counted = true) {
  const [view] = await listViews([form], form.siteId, counted);
  // One view per form given: typed as present, the answer's type has every field (infra/openapi/ checks it).
  return {
    form: {
      ...(view as NonNullable<typeof view>),
      fields: fieldList(form.fields),
      settings: settingsView(form.settings),
      // How long its submissions are kept, and the job applying its latest change (docs/privacy.md, "Retention").
      retention: retentionOf(form),
      retentionJob: retentionJobView(form),
      // Addresses the form's notifications skip (docs/email.md, "Suppressed addresses").
      suppressedRecipients: notificationSuppressions(form),
    },
  };
}

export async function listForms(principal: Principal, siteId: string, archived: boolean, limit: number, cursor?: string) {
  const site = await findSite(principal.orgId, siteId);
  const page = await listSiteForms(site.id, archived, limit, cursor);
  const forms = page.items.filter((f) => f.orgId === principal.orgId);
  return { forms: await listViews(forms, site.id), nextCursor: page.nextCursor };
}

export async function readForm(principal: Principal, formId: string, counted = true) {
  return detailView(await findForm(principal, formId), counted);
}

export interface FormInput {
  name: string;
  fields?: FieldInput[];
  settings?: SettingsInput;
  status?: Form["status"];
  /** Unset: the site's defaults for new forms. */
  retention?: Partial<Retention>;
}

async function insertBuilderForm(
  principal: Principal,
  siteId: string,
  input: Required<Omit<FormInput, "settings" | "retention">> & { settings: FormSettings; retention: Retention },
) {
  const now = nowIso();
  const form: Form = {
    id: newId("form"),
    orgId: principal.orgId,
    siteId,
    name: input.name,
    origin: "builder",
    createdByWebhookId: null,
    status: input.status,
    fields: fieldMap(input.fields),
    settings: input.settings,
    retention: input.retention,
    archivedAt: null,
    deletedAt: null,
    createdAt: now,
    updatedAt: now,
  };
  if ((await putForm(form)) === "PARENT_NOT_FOUND") throw notFound("Site");
  return detailView(form);
}

/** A form made in the builder: a draft unless `status` says otherwise. */
export async function createForm(principal: Principal, siteId: string, input: FormInput) {
  const site = await findSite(principal.orgId, siteId);
  return insertBuilderForm(principal, site.id, {
    name: input.name,
    fields: input.fields ?? [],
    status: input.status ?? "draft",
    settings: mergeSettings({ notifyEmails: [], redirectUrl: null }, input.settings, site),
    retention: { ...defaultRetentionOf(site), ...input.retention },
  });
}

/** A draft builder copy of the form's schema and settings (never its submissions). */
export async function duplicateForm(principal: Principal, formId: string, input: { name?: string }) {
  const source = await findForm(principal, formId);
  return insertBuilderForm(principal, source.siteId, {
    name: input.name ?? `${source.name} (copy)`.slice(0, 255),
    fields: fieldList(source.fields),
    status: "draft",
    // Same site: the redirect and the confirmation stay valid for the copy.
    settings: { ...settingsView(source.settings), notifyEmails: [...source.settings.notifyEmails] },
    retention: retentionOf(source),
  });
}

/** A timestamp strictly after `previous`, so every write changes `updatedAt` (the concurrency token). */
export function nextTimestamp(previous: string): string {
  const now = nowIso();
  return now > previous ? now : new Date(Date.parse(previous) + 1).toISOString();
}

/** `write`: how the changes are written (a retention change writes its job and audit entries with them). */
async function applyChanges(form: Form, changes: FormChanges, write: FormWriter = updateForm): Promise<Form> {
  const saved = await write(form, changes, nextTimestamp(form.updatedAt));
  if (saved === "CONFLICT") throw new AppError("CONFLICT", "The form changed while it was being updated; retry");
  if (!saved) throw notFound("Form");
  return saved;
}

export interface FormUpdate {
  name?: string;
  /** Replaces the schema: fields left out are removed from it; their collected data stays. */
  fields?: FieldInput[];
  settings?: SettingsInput;
  /** Either value, or both; null keeps forever. A change re-dates the existing submissions in the background. */
  retention?: Partial<Retention>;
  restore?: boolean;
  /**
   * The `updatedAt` of the form the client edited: when the form changed since (someone else
   * saved first, or intake grew its schema), 409 CONFLICT and nothing is written.
   */
  ifUpdatedAt?: string;
}

const changedMeanwhile = () =>
  new AppError("CONFLICT", "The form changed since it was read; reload it and apply your changes again");

/** `sourceIp`: the request's client address, for the audit entries of a retention or forward-only change. */
export async function editForm(principal: Principal, formId: string, update: FormUpdate, sourceIp: string) {
  const form = await findForm(principal, formId);
  if (update.ifUpdatedAt !== undefined && Date.parse(update.ifUpdatedAt) !== Date.parse(form.updatedAt)) {
    throw changedMeanwhile();
  }
  // The site only when a redirect or a confirmation turned on is to be checked against its domain (one more read, then).
  const site =
    typeof update.settings?.redirectUrl === "string" || update.settings?.confirmation?.enabled === true
      ? await findSite(principal.orgId, form.siteId)
      : undefined;
  const changes: FormChanges = {};
  if (update.restore === true) {
    if (form.archivedAt === null) throw new AppError("FORM_NOT_ARCHIVED", "Only an archived form can be restored");
    changes.archivedAt = null;
  }
  if (update.name !== undefined) changes.name = update.name;
  if (update.fields !== undefined) changes.fields = fieldMap(update.fields);
  if (update.settings !== undefined) changes.settings = mergeSettings(form.settings, update.settings, site);
  // Both audited changes of an edit go in its one transaction: with the retention job when the
  // retention changes, or on their own beside the form's update.
  const forwardOnly = forwardOnlyAudit(principal, sourceIp, form, changes);
  const writer =
    retentionChange(principal, sourceIp, form, update.retention, forwardOnly ? [forwardOnly] : []) ??
    (forwardOnly ? auditedWriter(forwardOnly) : undefined);
  return detailView(await applyChanges(form, changes, writer));
}

const auditedWriter =
  (entry: AuditEntryInput): FormWriter =>
  (current, changes, updatedAt) =>
    updateFormAudited(current, changes, updatedAt, entry);

/** Turning forward-only on or off is recorded in the audit log, in the change's own transaction. */
function forwardOnlyAudit(principal: Principal, sourceIp: string, form: Form, changes: FormChanges) {
  const before = form.settings.forwardOnly === true;
  const after = changes.settings ? changes.settings.forwardOnly === true : before;
  if (before === after) return undefined;
  return audited(
    principal,
    sourceIp,
    "form.forward_only_changed",
    { type: "form", id: form.id, name: form.name },
    {
      from: before,
      to: after,
    },
  );
}

export async function setFormStatus(principal: Principal, formId: string, status: Form["status"]) {
  const form = await findForm(principal, formId);
  return detailView(form.status === status ? form : await applyChanges(form, { status }));
}

/** Archives (idempotently): the form keeps its submissions and keeps receiving; `restore: true` undoes it. */
export async function archiveForm(principal: Principal, formId: string) {
  const form = await findForm(principal, formId);
  if (form.archivedAt !== null) return { message: "Form is already archived" };
  await applyChanges(form, { archivedAt: nowIso() });
  return { message: "Form archived" };
}

/**
 * Permanently deletes an archived form: it is gone for every reader at once, its submissions are
 * deleted by the background purge (lib/purge.ts), and the webhooks feeding it are unlinked (their
 * next submission creates a new auto form).
 */
export async function deleteForm(principal: Principal, sourceIp: string, formId: string) {
  const form = await findForm(principal, formId);
  if (form.archivedAt === null) throw new AppError("FORM_NOT_ARCHIVED", "Archive the form before deleting it permanently");
  const webhookIds = (await linkedWebhooks(form.siteId)).get(form.id) ?? [];
  // Only the permanent delete is audited: archiving hides nothing for good and can be undone (docs/privacy.md, "Audit log").
  const entry = audited(
    principal,
    sourceIp,
    "form.deleted",
    { type: "form", id: form.id, name: form.name },
    { siteId: form.siteId },
  );
  const outcome = await deleteFormPermanently(form, webhookIds, nowIso(), entry);
  if (outcome === "NOT_ARCHIVED") throw new AppError("FORM_NOT_ARCHIVED", "Archive the form before deleting it permanently");
  if (outcome === "NOT_FOUND") throw notFound("Form");
  if (outcome === "CONFLICT") throw new AppError("CONFLICT", "A webhook of the form changed meanwhile; retry");
  return {
    message: "Form permanently deleted; its submissions are being deleted in the background",
    unlinkedWebhookIds: webhookIds,
  };
}
