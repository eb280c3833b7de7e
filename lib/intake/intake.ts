import { AppError, notFound } from "../errors";
import { oneLine, SUBJECT_MAX, senderName } from "../header-text";
import { newId } from "../ids";
import { setSource } from "../metrics/invocation";
import * as metrics from "../metrics/record";
import { defaultRetentionOf, expiryOf, retentionOf } from "../retention";
import { takeCaptchaTokens, verifyCaptcha } from "../spam/captcha";
import { fingerprint, gatherEvidence } from "../spam/evidence";
import { scoreSpam } from "../spam/signals";
import { addFormFields } from "../store/form-fields";
import type { Form } from "../store/forms";
import { type IntakeResult, type Marker, type MarkerHit, readMarker } from "../store/intake-markers";
import { getSite, type Site } from "../store/sites";
import type { Submission } from "../store/submissions";
import type { Webhook } from "../store/webhooks";
import { formFor } from "./auto-form";
import { parseIntakeBody } from "./body";
import { type CompatControls, carbonCopies, RELATIVE_NEXT, takeCompatControls } from "./compat";
import { type NormalizedSubmission, normalizeSubmission } from "./fields";
import {
  checkSecret,
  checkSite,
  checkWebhookState,
  type IntakeConfig,
  keepConfig,
  keepForm,
  keptAccepts,
  keptConfig,
  readSiteAndForm,
  readWebhook,
} from "./intake-config";
import type { ParsedBody } from "./limits";
import { mapToForm } from "./mapping";
import { redirectProblem, redirectTarget, validateRedirect } from "./redirect";
import { holdReferenceNumber, takeReferenceNumber } from "./reference-numbers";
import { repeatMarkers } from "./repeat-markers";
import { repeatResult, storeWithDuplicateMarker, storeWithRepeatMarkers } from "./storing";

const MAX_IDEMPOTENCY_KEY = 255;

export interface IntakeRequest {
  webhookId: string;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  body: string | undefined;
  isBase64Encoded: boolean;
  sourceIp: string;
  now?: number;
  /**
   * Told the site's domain as soon as the site is read (round trip 2), before any check that
   * needs it: the route's browser page lets that domain frame it (lib/intake/browser-answer.ts).
   */
  onSite?: (domain: string | null) => void;
}

export interface IntakeOutcome {
  result: IntakeResult;
  /** Where to send the browser (303), `ref=<referenceId>` included. */
  redirect?: string;
  /**
   * The form's own redirect (`settings.redirectUrl`), `ref` included, when the submission named
   * none: for a browser navigation only (the route decides), since a script's `fetch()` would
   * follow a 303 to a page instead of reading its JSON answer.
   */
  formRedirect?: string;
  /** False when a repeat (Idempotency-Key, lead id) got the first submission's result. */
  stored: boolean;
}

const header = (headers: Record<string, string | undefined>, name: string) => headers[name]?.trim() || undefined;

/** The result in one key order, so a repeat's answer is byte for byte the first one's. */
const withRedirect = (
  result: IntakeResult,
  stored: boolean,
  redirect: URL | undefined,
  formRedirect: URL | undefined,
): IntakeOutcome => ({
  result: { submissionId: result.submissionId, referenceId: result.referenceId, fieldsMapped: result.fieldsMapped },
  stored,
  ...(redirect ? { redirect: redirectTarget(redirect, result.referenceId) } : {}),
  ...(formRedirect ? { formRedirect: redirectTarget(formRedirect, result.referenceId) } : {}),
});

/**
 * The linked form's own redirect, read with the form (no extra read), checked
 * again against the site's domain: one changed since the redirect was saved makes it no redirect
 * (the visitor gets the thank-you page), never a refusal of a submission the visitor could not fix.
 */
function formRedirectOf(form: Form | undefined, siteDomain: string | null | undefined) {
  const raw = form && !form.deletedAt ? form.settings?.redirectUrl : undefined;
  if (!raw) return undefined;
  const url = redirectProblem(raw, siteDomain);
  return typeof url === "string" ? undefined : url;
}

/**
 * Receives one submission (spec 4.2). A 200 (or 303) means the submission is durably stored:
 * the answer is sent only after its write succeeded, and anything that fails before that write
 * leaves nothing a retry would duplicate. DynamoDB round trips, each a set of parallel calls, on
 * a warm instance that holds the webhook's configuration (lib/intake/intake-config.ts) and a
 * reference number (lib/intake/reference-numbers.ts):
 * 1. the spam evidence, any repeat markers, and a block of reference numbers when the instance
 *    holds none for the site (not for a request with repeat markers: a repeat takes no number);
 * 2. the submission (with its markers, in one transaction when there are any), and beside it
 *    the webhook's count and (without markers) the duplicate marker, taken back if the write
 *    fails or loses to a repeat;
 * 3. only for a browser submission with an Idempotency-Key: the duplicate marker, once the
 *    submission is stored (a repeat that lost the race must not leave or remove one).
 * Without the configuration kept, the webhook's strongly consistent read comes first (while the
 * body is parsed), and the site and the form are read in round trip 1. Sometimes one more before
 * the write: a webhook's first submission creates its form (one transaction), a request with
 * repeat markers whose instance holds no number reserves a block, and a submission bringing new
 * fields adds them to the form's schema, so a failure there is answered before anything is
 * stored. A site with captcha adds the provider's siteverify call after 1. Nothing is written
 * before every check passed except the per-IP counter and a reference block (whose numbers serve
 * the instance's next requests).
 */
export async function receiveSubmission(req: IntakeRequest): Promise<IntakeOutcome> {
  const now = req.now ?? Date.now();
  const { webhook, kept, readAt, parsed, submission, compat } = await authenticateSubmission(req);
  const tokens = takeCaptchaTokens(submission.data);
  if (Object.keys(submission.data).length === 0) throw new AppError("NO_DATA_FIELDS", "The submission has no data fields");
  const idempotencyKey = header(req.headers, "idempotency-key");
  const idempotencyKeyValid = idempotencyKey === undefined || idempotencyKey.length <= MAX_IDEMPOTENCY_KEY;
  const markers = repeatMarkers(webhook, submission, idempotencyKeyValid ? idempotencyKey : undefined, now);

  const print = fingerprint(req.sourceIp, submission.data);
  const { config, first, evidence } = await readContext({ webhook, kept, readAt }, markers, req.sourceIp, print, now);
  const { site } = config;
  if (site) req.onSite?.(site.domain);
  checkSite(site);
  if (!kept) keepConfig(config);
  if (!idempotencyKeyValid) {
    throw new AppError("INVALID_IDEMPOTENCY_KEY", `Idempotency-Key is at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  // Checked before a repeat is answered too: a repeat may not redirect anywhere a first post may not.
  // A blank `_redirect` (a template's empty hidden input) is no redirect.
  const redirect = redirectOf(submission, compat, webhook, site, header(req.headers, "referer"));
  const formRedirect = redirect ? undefined : formRedirectOf(config.form, site.domain);
  if (first) return withRedirect(first, false, redirect, formRedirect);
  // Server-to-server sources cannot solve a captcha; they are authenticated by the secret.
  if (site.captcha && webhook.source === "generic") {
    await verifyCaptcha(site.captcha, site.domain, tokens, req.sourceIp);
  }

  const spam = scoreSpam({
    source: webhook.source,
    data: submission.data,
    controls: submission.controls,
    honeypots: compat.honeypots,
    referer: header(req.headers, "referer"),
    userAgent: header(req.headers, "user-agent"),
    now,
    ...evidence,
  });
  const { stored, result, form, newFields } = await placeInForm(req, config, site, { submission, compat }, parsed.droppedFiles, {
    spam,
    now,
  });
  // New fields first (if_not_exists, so a retry after a failure here is harmless): a submission
  // is never stored with fields its form's schema does not have.
  await addFormFields(stored.formId, newFields, stored.createdAt);
  if (form !== config.form || Object.keys(newFields).length > 0) {
    keepForm(config, { ...form, fields: { ...form.fields, ...newFields } });
  }
  const outcome =
    markers.length > 0
      ? await storeWithRepeatMarkers(webhook, stored, result, markers, print, now)
      : await storeWithDuplicateMarker(webhook, stored, result, print, now);
  if (outcome.stored) metrics.submissionStored(spam);
  return withRedirect(outcome.result, outcome.stored, redirect, formRedirect);
}

/**
 * Where a successful post sends the browser: `_redirect`, else `_next` (under formspree or
 * formsubmit compatibility either may be a path relative to the Referer), else web3forms'
 * `redirect`; each checked against the site's domain (400 INVALID_REDIRECT).
 */
function redirectOf(
  submission: NormalizedSubmission,
  compat: CompatControls,
  webhook: Webhook,
  site: Site,
  referer: string | undefined,
): URL | undefined {
  const own = submission.controls.redirect?.trim() || submission.controls.next?.trim() || undefined;
  const service = webhook.compatibility?.service;
  if (own !== undefined) {
    return validateRedirect(own, site.domain, service && RELATIVE_NEXT.has(service) ? { base: referer ?? "" } : {});
  }
  const theirs = compat.redirect?.trim() || undefined;
  return theirs === undefined ? undefined : validateRedirect(theirs, site.domain, { name: "redirect" });
}

/**
 * The submission as the webhook's compatibility setting reads it: its data without the service's
 * control fields, what they said, and the secret whichever comes first of `?key=`,
 * `X-Webhook-Key`, an ads payload's key and (under web3forms) the body's `access_key`.
 */
function readSubmission(req: IntakeRequest, parsed: ParsedBody, webhook: Webhook) {
  const submission = normalizeSubmission(parsed);
  const compat = takeCompatControls(submission, webhook.compatibility);
  // An empty `?key=` does not hide the header; the body's key counts only in an ads payload or
  // under web3forms compatibility.
  const secret = req.query.key || header(req.headers, "x-webhook-key") || submission.ads?.key || compat.secret || undefined;
  return { submission, compat, secret };
}

/**
 * The webhook, kept or read strongly consistent while the body is parsed; then the checks in
 * their documented order: unknown webhook, the body, the secret, the webhook's state. A kept
 * copy that would refuse the request is not trusted with the refusal: the webhook is read again.
 */
async function authenticateSubmission(req: IntakeRequest) {
  let readAt = Date.now();
  const kept = keptConfig(req.webhookId);
  const [found, parsed] = await Promise.all([
    kept ? kept.webhook : readWebhook(req.webhookId),
    parseIntakeBody(req.body, req.isBase64Encoded, header(req.headers, "content-type")).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if (!found) throw notFound("Webhook");
  setSource(found.source);
  if ("error" in parsed) throw parsed.error;
  let read = readSubmission(req, parsed.value, found);
  if (kept && keptAccepts(kept, read.secret)) return { webhook: kept.webhook, kept, readAt, parsed: parsed.value, ...read };
  if (kept) readAt = Date.now();
  const webhook = kept ? await readWebhook(req.webhookId) : found;
  if (!webhook) throw notFound("Webhook");
  // The setting changed since the kept copy was read: the fresh one decides which names are controls.
  if (webhook !== found && JSON.stringify(webhook.compatibility ?? null) !== JSON.stringify(found.compatibility ?? null)) {
    read = readSubmission(req, parsed.value, webhook);
  }
  checkSecret(webhook, read.secret);
  checkWebhookState(webhook);
  return { webhook, kept: undefined, readAt, parsed: parsed.value, ...read };
}

/**
 * Round trip 1, all in parallel: the site and the form the webhook is linked to (unless kept), a
 * first result for any repeat marker, the spam evidence (this request counts), and a block of
 * reference numbers when the instance holds none for the site and the request cannot be a repeat.
 */
async function readContext(
  { webhook, kept, readAt }: { webhook: Webhook; kept: IntakeConfig | undefined; readAt: number },
  markers: Marker[],
  sourceIp: string,
  print: string,
  now: number,
) {
  const [siteAndForm, firstResults, evidence] = await Promise.all([
    kept ?? readSiteAndForm(webhook),
    Promise.all(markers.map((m) => readMarker(m))),
    gatherEvidence(webhook.source, sourceIp, print, now),
    markers.length === 0 ? holdReferenceNumber(webhook.siteId) : undefined,
  ]);
  const config: IntakeConfig = kept ?? { webhook, ...siteAndForm, readAt };
  const hit = markers.findIndex((_, i) => firstResults[i] !== undefined);
  const first = hit === -1 ? undefined : repeatResult(markers[hit] as Marker, firstResults[hit] as MarkerHit);
  return { config, first, evidence };
}

/** The form the submission goes to (created on a webhook's first submission), and the submission as it will be stored. */
async function placeInForm(
  req: IntakeRequest,
  config: IntakeConfig,
  site: Site,
  { submission, compat }: { submission: NormalizedSubmission; compat: CompatControls },
  droppedFiles: string[],
  { spam, now }: { spam: Submission["spam"]; now: number },
) {
  const { webhook } = config;
  const { controls } = submission;
  const hints = { labels: submission.ads?.labels ?? {}, types: submission.ads?.types ?? {} };
  // `_form` wins over netlify's `form-name`.
  const formName = (controls.form?.trim() || compat.formName?.trim() || webhook.name).slice(0, 255);
  // Side by side: each is a round trip only sometimes (a first submission; a request with
  // repeat markers on an instance that holds no number).
  const [targetForm, referenceNumber] = await Promise.all([
    formFor(webhook, config.form, formName, submission.data, hints, defaultRetentionOf(site)),
    takeReferenceNumber(webhook.siteId),
  ]);
  const mapping = mapToForm(targetForm, submission.data, hints);
  // The underscore names win over the service's own.
  const replyTo = controls.replyto || compat.replyTo;
  const subject = oneLine(controls.subject || compat.subject || "", SUBJECT_MAX);
  const fromName = compat.fromName === undefined ? undefined : senderName(compat.fromName);
  const copies = carbonCopies([controls.cc, compat.cc], targetForm.settings?.notifyEmails ?? []);
  const stored: Submission = {
    id: newId("submission"),
    orgId: webhook.orgId,
    siteId: webhook.siteId,
    formId: targetForm.id,
    webhookId: webhook.id,
    referenceId: `${site.referencePrefix}-${referenceNumber}`,
    data: mapping.data,
    metadata: {
      source: webhook.source,
      userAgent: header(req.headers, "user-agent") ?? null,
      referer: header(req.headers, "referer") ?? null,
      ip: req.sourceIp,
      droppedFiles,
      ignoredFields: submission.ignoredFields,
      ...(submission.ads ? { ads: submission.ads.metadata, isTest: submission.ads.isTest } : {}),
      ...(replyTo ? { replyTo } : {}),
      ...(subject ? { subject } : {}),
      ...(fromName ? { fromName } : {}),
      ...copies,
    },
    spam,
    createdAt: new Date(now).toISOString(),
  };
  // Its expiry under the form's retention (docs/privacy.md, "Retention"): an attribute of the
  // same write, from the form already in hand, never another round trip.
  const ttl = expiryOf(stored.createdAt, spam.isSpam, retentionOf(targetForm));
  if (ttl !== undefined) stored.ttl = ttl;
  const result: IntakeResult = { submissionId: stored.id, referenceId: stored.referenceId, fieldsMapped: mapping.fieldsMapped };
  return { stored, result, form: targetForm, newFields: mapping.newFields };
}

/** `GET /incoming/{id}`: reachability pings (docs/intake.md): 200 for an active webhook. */
export async function pingWebhook(webhookId: string) {
  const webhook = await readWebhook(webhookId);
  if (!webhook) throw notFound("Webhook");
  checkWebhookState(webhook);
  checkSite(await getSite(webhook.orgId, webhook.siteId));
  return { success: true, webhook: webhook.name, status: "active" } as const;
}
