import type { Principal } from "../auth/principal";
import { SesRequestError, ses } from "../aws/ses";
import { AppError, notFound } from "../errors";
import { findForm } from "../forms";
import { describeError, log } from "../log";
import { EMAIL_KINDS, notificationSuppressions, recipientIdOf } from "../notifications/suppression";
import {
  getSuppressedConfirmation,
  liftConfirmationSuppression,
  listSuppressedConfirmations,
} from "../store/confirmation-recipients";
import { removeSuppressedRecipient } from "../store/suppressed-recipients";

/**
 * The addresses a form's emails skip because SES reported them bouncing hard or complaining
 * (docs/email.md, "Suppressed addresses"), and lifting one after the mailbox was fixed. Two kinds:
 * the form's notification addresses (on the form item, answered with the form), and the
 * submitters its confirmations went to (their own items, listed with `submissions.view`: they are
 * the submitters' addresses).
 */

const ID = /^sr_([0-9A-Za-z]{22})$/;

/**
 * Every suppressed address of the form: its notification addresses (first page only: a few, on
 * the form item), then the submitters its confirmations went to, a page at a time.
 */
export async function listSuppressedRecipients(principal: Principal, formId: string, limit: number, cursor?: string) {
  const form = await findForm(principal, formId);
  const page = await listSuppressedConfirmations(form.id, limit, cursor);
  return {
    suppressedRecipients: [
      ...(cursor ? [] : notificationSuppressions(form)),
      ...page.items.map((r) => ({
        id: `sr_${r.recipientId}`,
        kind: EMAIL_KINDS.confirmation,
        address: r.address,
        reason: r.reason,
        detail: r.detail,
        at: r.at,
      })),
    ],
    nextCursor: page.nextCursor,
  };
}

/**
 * Takes the address off SES's account-level suppression list first (else SES would drop the
 * next email and report it bouncing again), then off the form. SES refusing for a while
 * (throttling, an outage) is a 503 to retry; nothing is lifted on the form then.
 */
async function unsuppressAtSes(address: string): Promise<void> {
  try {
    await ses().unsuppress(address);
  } catch (error) {
    if (error instanceof SesRequestError && (error.status === 429 || error.status >= 500)) {
      log.warn("SES suppression list unavailable", describeError(error));
      throw new AppError("SERVICE_UNAVAILABLE", "SES could not lift the suppression; retry shortly", undefined, {
        "retry-after": "5",
      });
    }
    throw error;
  }
}

/** Lifts one suppressed address of the form (either kind): 404 when the form has none of that id. */
export async function liftSuppression(principal: Principal, formId: string, id: string, now = Date.now()) {
  const form = await findForm(principal, formId);
  const digest = ID.exec(id)?.[1];
  if (!digest) throw notFound("Suppressed recipient");
  const notified = Object.keys(form.suppressedRecipients ?? {}).find((address) => recipientIdOf(address) === digest);
  if (notified !== undefined) {
    await unsuppressAtSes(notified);
    if ((await removeSuppressedRecipient(form.id, notified)) === "NOT_FOUND") throw notFound("Suppressed recipient");
    return { message: "The address is no longer suppressed: the form's notifications go to it again" };
  }
  const confirmed = await getSuppressedConfirmation(form.id, digest);
  if (!confirmed) throw notFound("Suppressed recipient");
  await unsuppressAtSes(confirmed.address);
  if ((await liftConfirmationSuppression(form.id, digest, now)) === "NOT_FOUND") throw notFound("Suppressed recipient");
  return { message: "The address is no longer suppressed: the form's confirmations go to it again" };
}
