import { AppError, notFound } from "../errors";
import { epochSeconds, newId, safeEqual, sha256Hex } from "../ids";
import { setSource } from "../metrics/invocation";
import * as metrics from "../metrics/record";
import { takeCaptchaTokens, verifyCaptcha } from "../spam/captcha";
import { fingerprint, gatherEvidence } from "../spam/evidence";
import { scoreSpam } from "../spam/signals";
import { addFormFields } from "../store/form-fields";
import {
  type IntakeResult,
  idempotencyMarker,
  leadMarker,
  type Marker,
  type MarkerHit,
  readMarker,
} from "../store/intake-markers";
import { getSite, nextReferenceNumber, type Site } from "../store/sites";
import type { Submission } from "../store/submissions";
import { getWebhook, type Webhook } from "../store/webhooks";
import { formFor, readLinkedForm } from "./auto-form";
import { parseIntakeBody } from "./body";
import { type NormalizedSubmission, normalizeSubmission } from "./fields";
import { mapToForm } from "./mapping";
import { redirectProblem, redirectTarget, validateRedirect } from "./redirect";
import { repeatResult, storeAndCount, storeWithRepeatMarkers } from "./storing";

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
export const LEAD_MARKER_TTL_SECONDS = 90 * 24 * 3600;
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

/**
 * The checks, in this order (docs/intake.md, "Check order"): unknown webhook 404; the body (415,
 * 413, 400); the secret (401); archived 410, disabled 403, inactive site 403; then what the
 * request asks for (400 INVALID_REDIRECT, INVALID_IDEMPOTENCY_KEY). A sender learns what is
 * wrong with its payload without the secret, but nothing about the webhook's state.
 */
function checkWebhookState(webhook: Webhook): void {
  if (webhook.archivedAt !== null) throw new AppError("WEBHOOK_ARCHIVED", "This webhook is archived");
  if (!webhook.isEnabled) throw new AppError("WEBHOOK_DISABLED", "This webhook is disabled");
}

function checkSite(site: Site | undefined): asserts site is Site {
  if (!site) throw notFound("Webhook");
  if (!site.isActive) throw new AppError("SITE_INACTIVE", "This site is not accepting submissions");
}

function checkSecret(webhook: Webhook, secret: string | undefined): void {
  if (!secret) throw new AppError("WEBHOOK_KEY_REQUIRED", "Send the webhook's secret key in ?key= or X-Webhook-Key");
  // Hashes of equal length, compared in constant time.
  if (!safeEqual(sha256Hex(secret), webhook.secretHash)) {
    throw new AppError("WEBHOOK_KEY_INVALID", "The webhook's secret key is wrong");
  }
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
 * The linked form's own redirect, read in round trip 2 with the form (no extra read), checked
 * again against the site's domain: one changed since the redirect was saved makes it no redirect
 * (the visitor gets the thank-you page), never a refusal of a submission the visitor could not fix.
 */
function formRedirectOf(form: Awaited<ReturnType<typeof readLinkedForm>>, siteDomain: string | null | undefined) {
  const raw = form && !form.deletedAt ? form.settings?.redirectUrl : undefined;
  if (!raw) return undefined;
  const url = redirectProblem(raw, siteDomain);
  return typeof url === "string" ? undefined : url;
}

/**
 * Receives one submission (spec 4.2). A 200 (or 303) means the submission is durably stored:
 * the answer is sent only after its write succeeded, and anything that fails before that write
 * leaves nothing a retry would duplicate. DynamoDB round trips, each a set of parallel calls:
 * 1. the webhook, strongly consistent (while the body is parsed);
 * 2. the site, the form, the next reference number, the spam evidence and any repeat markers;
 * 3. the submission (with its markers, in one transaction when there are any), and beside it
 *    the webhook's count and (without markers) the duplicate marker, taken back if the write
 *    fails or loses to a repeat;
 * 4. only for a browser submission with an Idempotency-Key: the duplicate marker, once the
 *    submission is stored (a repeat that lost the race must not leave or remove one).
 * Sometimes one more: a webhook's first submission creates its form (one transaction) before 3,
 * and a submission bringing new fields adds them to the form's schema before 3, so a failure
 * there is answered before anything is stored. A site with captcha adds the provider's
 * siteverify call after 2. Nothing is written before every check passed except the counters of
 * step 2 (a reference number may be skipped; it is never repeated).
 */
export async function receiveSubmission(req: IntakeRequest): Promise<IntakeOutcome> {
  const now = req.now ?? Date.now();
  const { webhook, parsed, submission } = await authenticateSubmission(req);
  const tokens = takeCaptchaTokens(submission.data);
  if (Object.keys(submission.data).length === 0) throw new AppError("NO_DATA_FIELDS", "The submission has no data fields");
  const idempotencyKey = header(req.headers, "idempotency-key");
  const idempotencyKeyValid = idempotencyKey === undefined || idempotencyKey.length <= MAX_IDEMPOTENCY_KEY;
  const markers = repeatMarkers(webhook, submission, idempotencyKeyValid ? idempotencyKey : undefined, now);

  const print = fingerprint(req.sourceIp, submission.data);
  const { site, linkedForm, first, evidence, referenceNumber } = await readContext(webhook, markers, req.sourceIp, print, now);
  if (site) req.onSite?.(site.domain);
  checkSite(site);
  if (!idempotencyKeyValid) {
    throw new AppError("INVALID_IDEMPOTENCY_KEY", `Idempotency-Key is at most ${MAX_IDEMPOTENCY_KEY} characters`);
  }
  // Checked before a repeat is answered too: a repeat may not redirect anywhere a first post may not.
  // A blank `_redirect` (a template's empty hidden input) is no redirect.
  const redirectControl = submission.controls.redirect?.trim() || submission.controls.next?.trim() || undefined;
  const redirect = redirectControl === undefined ? undefined : validateRedirect(redirectControl, site.domain);
  const formRedirect = redirect ? undefined : formRedirectOf(linkedForm, site.domain);
  if (first) return withRedirect(first, false, redirect, formRedirect);
  // Server-to-server sources cannot solve a captcha; they are authenticated by the secret.
  if (site.captcha && webhook.source === "generic") {
    await verifyCaptcha(site.captcha, site.domain, tokens, req.sourceIp);
  }

  const spam = scoreSpam({
    source: webhook.source,
    data: submission.data,
    controls: submission.controls,
    referer: header(req.headers, "referer"),
    userAgent: header(req.headers, "user-agent"),
    now,
    ...evidence,
  });
  const { stored, result, newFields } = await placeInForm(req, webhook, site, linkedForm, submission, parsed.droppedFiles, {
    spam,
    referenceNumber,
    now,
  });
  // New fields first (if_not_exists, so a retry after a failure here is harmless): a submission
  // is never stored with fields its form's schema does not have.
  await addFormFields(stored.formId, newFields, stored.createdAt);
  const outcome =
    markers.length > 0
      ? await storeWithRepeatMarkers(webhook, stored, result, markers, print, now)
      : await storeAndCount(webhook, stored, result, print, now);
  if (outcome.stored) metrics.submissionStored(spam);
  return withRedirect(outcome.result, outcome.stored, redirect, formRedirect);
}

/**
 * Round trip 1: the webhook (strongly consistent) while the body is parsed; then the checks in
 * their documented order: unknown webhook, the body, the secret, the webhook's state.
 */
async function authenticateSubmission(req: IntakeRequest) {
  const [webhook, parsed] = await Promise.all([
    getWebhook(req.webhookId, { consistent: true }),
    parseIntakeBody(req.body, req.isBase64Encoded, header(req.headers, "content-type")).then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    ),
  ]);
  if (!webhook) throw notFound("Webhook");
  setSource(webhook.source);
  if ("error" in parsed) throw parsed.error;
  const submission = normalizeSubmission(parsed.value);
  // An empty `?key=` does not hide the header; the body's key counts only in an ads payload.
  checkSecret(webhook, req.query.key || header(req.headers, "x-webhook-key") || submission.ads?.key);
  checkWebhookState(webhook);
  return { webhook, parsed: parsed.value, submission };
}

/**
 * Round trip 2, all in parallel: the site, the form the webhook is linked to, a first result for
 * any repeat marker, the spam evidence (this request counts), and the next reference number.
 */
async function readContext(webhook: Webhook, markers: Marker[], sourceIp: string, print: string, now: number) {
  const [site, linkedForm, firstResults, evidence, referenceNumber] = await Promise.all([
    getSite(webhook.orgId, webhook.siteId),
    readLinkedForm(webhook),
    Promise.all(markers.map((m) => readMarker(m))),
    gatherEvidence(webhook.source, sourceIp, print, now),
    nextReferenceNumber(webhook.siteId),
  ]);
  const hit = markers.findIndex((_, i) => firstResults[i] !== undefined);
  const first = hit === -1 ? undefined : repeatResult(markers[hit] as Marker, firstResults[hit] as MarkerHit);
  return { site, linkedForm, first, evidence, referenceNumber };
}

/**
 * What makes two requests under one Idempotency-Key the same request: their data fields, in any
 * order (a client that re-serializes its retry in another key order is still retrying).
 */
const requestDigest = (data: Record<string, unknown>) =>
  sha256Hex(
    JSON.stringify(
      Object.keys(data)
        .sort()
        .map((key) => [key, data[key]]),
    ),
  );

/** The markers that make a repeat answer the first submission's result: Idempotency-Key, ads lead id. */
function repeatMarkers(
  webhook: Webhook,
  submission: NormalizedSubmission,
  idempotencyKey: string | undefined,
  now: number,
): Marker[] {
  const markers: Marker[] = [];
  if (idempotencyKey) {
    markers.push(
      idempotencyMarker(
        webhook.id,
        sha256Hex(idempotencyKey),
        epochSeconds(now) + IDEMPOTENCY_TTL_SECONDS,
        requestDigest(submission.data),
      ),
    );
  }
  if (submission.ads?.leadId) {
    // Hashed: a lead id is the sender's text, and a key may hold at most 2,048 bytes.
    markers.push(leadMarker(webhook.id, sha256Hex(submission.ads.leadId), epochSeconds(now) + LEAD_MARKER_TTL_SECONDS));
  }
  return markers;
}

/** The form the submission goes to (created on a webhook's first submission), and the submission as it will be stored. */
async function placeInForm(
  req: IntakeRequest,
  webhook: Webhook,
  site: Site,
  linkedForm: Awaited<ReturnType<typeof readLinkedForm>>,
  submission: NormalizedSubmission,
  droppedFiles: string[],
  { spam, referenceNumber, now }: { spam: Submission["spam"]; referenceNumber: number; now: number },
) {
  const hints = { labels: submission.ads?.labels ?? {}, types: submission.ads?.types ?? {} };
  const formName = (submission.controls.form?.trim() || webhook.name).slice(0, 255);
  const targetForm = await formFor(webhook, linkedForm, formName, submission.data, hints);
  const mapping = mapToForm(targetForm, submission.data, hints);
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
      ...(submission.controls.replyto ? { replyTo: submission.controls.replyto } : {}),
      ...(submission.controls.subject ? { subject: submission.controls.subject } : {}),
    },
    spam,
    createdAt: new Date(now).toISOString(),
  };
  const result: IntakeResult = { submissionId: stored.id, referenceId: stored.referenceId, fieldsMapped: mapping.fieldsMapped };
  return { stored, result, newFields: mapping.newFields };
}

/** `GET /incoming/{id}`: reachability pings (docs/intake.md): 200 for an active webhook. */
export async function pingWebhook(webhookId: string) {
  const webhook = await getWebhook(webhookId, { consistent: true });
  if (!webhook) throw notFound("Webhook");
  checkWebhookState(webhook);
  checkSite(await getSite(webhook.orgId, webhook.siteId));
  return { success: true, webhook: webhook.name, status: "active" } as const;
}
