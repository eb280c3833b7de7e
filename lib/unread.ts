import type { Principal, SessionPrincipal } from "./auth/principal";
import { AppError, notFound } from "./errors";
import { findForm } from "./forms";
import { isRead, keyAfter, LOWEST_KEY, neighboursOf, type ReadRange, withRead, withUnread } from "./read-ranges";
import { getReadState, putReadState, type ReadState } from "./store/read-ranges";
import { getSubmission } from "./store/submissions";
import { inboxKeyOf, inboxPartition, newestSubmissionKey, readWindow } from "./store/view-entries";
import { readSubmission } from "./submissions";

/**
 * Unread per member (docs/triage.md, "Filters and unread"): each member's read state of a form is
 * one item of sort-key ranges (lib/store/read-ranges.ts, lib/read-ranges.ts). Opening a
 * submission's page marks it read (the dashboard calls PUT .../read: a GET never writes, so an
 * API read, a prefetch or a crawler never marks anything), a member can mark it unread again, or
 * mark a whole form read. API keys have no read state: their `unread` is null.
 */

/** Writes of one change before a member's concurrent changes answer 409 CONFLICT. */
const MAX_ATTEMPTS = 5;
/**
 * Items one look between two ranges reads: when it finds no unread inbox submission in them
 * (and reaches the next range) the ranges are joined; otherwise (or when spam fills the look)
 * they stay apart, which costs nothing but one more range.
 */
const JOIN_LOOK = 25;

/** The caller's read ranges of a form, or undefined for an API key (no member: `unread` is null). */
export async function readRangesFor(principal: Principal, formId: string): Promise<ReadRange[] | undefined> {
  if (principal.kind !== "session") return undefined;
  return (await getReadState(principal.userId, formId)).ranges;
}

/** A submission's `unread` for the caller: null without a member (an API key). */
export const unreadOf = (ranges: readonly ReadRange[] | undefined, s: { formId: string; createdAt: string; id: string }) =>
  ranges === undefined ? null : !isRead(ranges, inboxKeyOf(s));

async function mySubmission(principal: Principal, submissionId: string) {
  const submission = await getSubmission(submissionId);
  if (!submission || submission.orgId !== principal.orgId) throw notFound("Submission");
  return submission;
}

/** Whether an unread inbox submission may lie in `[from, before)` of the form's inbox (true when unsure). */
async function unreadBetween(formId: string, from: string, before: string): Promise<boolean> {
  if (from >= before) return false;
  const look = await readWindow(inboxPartition(formId), { from, before }, JOIN_LOOK);
  return look.items.length > 0 || look.stoppedAt !== undefined;
}

/** Applies a change to the member's ranges with a write conditioned on the version read; read again when another came first. */
async function changeRanges(
  userId: string,
  formId: string,
  next: (state: ReadState) => Promise<ReadRange[] | undefined>,
): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = await getReadState(userId, formId, attempt > 0);
    const ranges = await next(state);
    if (ranges === undefined) return;
    if (await putReadState(userId, formId, ranges, state.version)) return;
  }
  throw new AppError("CONFLICT", "The read state changed while it was being written; try again");
}

/** Marks one submission read for the caller, joining its range with its neighbours when nothing unread lies between. */
export async function markRead(principal: SessionPrincipal, submissionId: string) {
  const s = await mySubmission(principal, submissionId);
  const key = inboxKeyOf(s);
  await changeRanges(principal.userId, s.formId, async ({ ranges }) => {
    if (isRead(ranges, key)) return undefined;
    const { below, above } = neighboursOf(ranges, key);
    const lower = ranges[below];
    const upper = ranges[above];
    const [gapBelow, gapAbove] = await Promise.all([
      lower ? unreadBetween(s.formId, lower[1], key) : true,
      upper ? unreadBetween(s.formId, keyAfter(key), upper[0]) : true,
    ]);
    return withRead(ranges, key, { below: !gapBelow, above: !gapAbove });
  });
  return { submissionId: s.id, unread: false };
}

/** Marks one submission unread again for the caller (its range is split around it). */
export async function markUnread(principal: SessionPrincipal, submissionId: string) {
  const s = await mySubmission(principal, submissionId);
  const key = inboxKeyOf(s);
  await changeRanges(principal.userId, s.formId, async ({ ranges }) =>
    isRead(ranges, key) ? withUnread(ranges, key) : undefined,
  );
  return { submissionId: s.id, unread: true };
}

/**
 * Marks every submission of the form read for the caller, up to its newest now: one range from
 * the lowest key to just after the newest. A submission stored after this is unread.
 */
export async function markAllRead(principal: SessionPrincipal, formId: string) {
  const form = await findForm(principal, formId);
  const newest = await newestSubmissionKey(form.id);
  if (newest !== undefined) {
    await changeRanges(principal.userId, form.id, async () => [[LOWEST_KEY, keyAfter(newest.key)]]);
  }
  return { formId: form.id, readThrough: newest?.createdAt ?? null };
}

/**
 * GET /api/v1/submissions/{id} with the caller's `unread` (its read state read after the
 * submission, which names the form). Reading does not mark it read: the dashboard marks it when
 * the page opens (PUT .../read), so an API read or a prefetch changes nothing.
 */
export async function readSubmissionWithUnread(principal: Principal, submissionId: string) {
  const { submission } = await readSubmission(principal, submissionId);
  const ranges = await readRangesFor(principal, submission.formId);
  return { submission: { ...submission, unread: unreadOf(ranges, submission) } };
}
