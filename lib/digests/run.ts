import { loadConfig } from "../config";
import { describeError, log } from "../log";
import { mayEmail, wantsDigest } from "../notifications/member-choices";
import { once } from "../pipeline/once";
import {
  DIGEST_CADENCES,
  type DigestCadence,
  type DigestSchedule,
  listDueDigests,
  type NotifiedMember,
  rescheduleDigests,
} from "../store/member-notifications";
import { collectDigest, isEmpty } from "./collect";
import { digestEmail } from "./email";
import { digestTime, nextDueAt, type Period, periodOf } from "./schedule";
import { sendDigestEmail } from "./send";
import { DIGEST_RUN_TIMEOUT_SECONDS } from "./timeout";

/**
 * One run of the digest schedule (hourly in AWS, on a timer locally: docs/notifications.md,
 * "Digests"): every member whose digest is due by `at` gets it, and their next one is scheduled.
 *
 * - Due members come from the due index, a page at a time (lib/store/member-notifications.ts),
 *   never from a scan of members.
 * - A digest is sent once per member, cadence and period, even if runs overlap or the schedule
 *   fires twice: it is an action claim (`ACTION#digest_<userId>_<cadence>_<last day>#digest`,
 *   lib/pipeline/once.ts), claimed with a conditional put before the digest is read and sent,
 *   marked done after. A claim found done moves the schedule on without sending again.
 * - A digest that fails (SES refused it) releases its claim and keeps the member due: the next
 *   run (or the schedule's retry of this one) tries again. The run goes on with the others, then
 *   fails as a whole, so the function's error alarm says so.
 * - A digest with nothing to say (nothing received, nothing failing) is not sent; its days count
 *   as covered.
 */

export const DIGEST_ACTION = "digest";
/** Members read per page of the due index, and digested side by side. */
const PAGE_SIZE = 25;
const PARALLEL = 5;
/** A run stops taking new pages this long before its deadline: the rest stay due for the next run. */
const RESERVE_MS = 60_000;

export interface DigestRunSummary {
  /** Members found due. */
  members: number;
  sent: number;
  /** Digests with nothing to say, not sent. */
  empty: number;
  /** Members whose digest failed; they stay due. */
  failed: number;
}

const subjectOf = (member: NotifiedMember, cadence: DigestCadence, period: Period) =>
  `digest_${member.userId}_${cadence}_${period.to}`;

export async function runDigests(at: number, options: { deadline?: number } = {}): Promise<DigestRunSummary> {
  const summary: DigestRunSummary = { members: 0, sent: 0, empty: 0, failed: 0 };
  const iso = new Date(at).toISOString();
  let cursor: string | undefined;
  do {
    const page = await listDueDigests(iso, PAGE_SIZE, cursor);
    summary.members += page.members.length;
    for (let i = 0; i < page.members.length; i += PARALLEL) {
      await Promise.all(
        page.members.slice(i, i + PARALLEL).map((member) =>
          digestMember(member, at, summary).catch((error: unknown) => {
            summary.failed++;
            log.error("digest failed", { userId: member.userId, orgId: member.orgId, ...describeError(error) });
          }),
        ),
      );
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor && (options.deadline === undefined || Date.now() < options.deadline - RESERVE_MS));
  if (cursor) log.warn("digest run stopped before its deadline: the rest stay due", { at: iso, members: summary.members });
  return summary;
}

/** Sends a member's due digests (at most one per cadence) and schedules the next ones. */
async function digestMember(member: NotifiedMember, at: number, summary: DigestRunSummary): Promise<void> {
  const time = digestTime(member);
  const next: DigestSchedule = { ...member.digests };
  for (const cadence of DIGEST_CADENCES) {
    const state = member.digests?.[cadence];
    if (!state || Date.parse(state.dueAt) > at) continue;
    if (!wantsDigest(member.notifications, cadence)) {
      delete next[cadence];
      continue;
    }
    const dueAt = Date.parse(state.dueAt);
    const period = periodOf(cadence, dueAt, state.coveredUntil);
    if (period && mayEmail(member)) {
      const outcome = await once(
        subjectOf(member, cadence, period),
        DIGEST_ACTION,
        async () => {
          summary[(await sendDigest(member, cadence, period, time.zone)) ? "sent" : "empty"]++;
        },
        DIGEST_RUN_TIMEOUT_SECONDS * 1000,
      );
      // Another run is sending it right now: that run moves the schedule on.
      if (outcome === "busy") continue;
    }
    next[cadence] = {
      dueAt: new Date(nextDueAt(cadence, time, Math.max(dueAt, at))).toISOString(),
      ...(period ? { coveredUntil: period.to } : state.coveredUntil ? { coveredUntil: state.coveredUntil } : {}),
    };
  }
  if (!(await rescheduleDigests(member, next))) {
    // The member saved new choices meanwhile: their schedule stands; a claim keeps a period from going twice.
    log.info("digest schedule changed during the run", { userId: member.userId });
  }
}

/** Reads and sends one digest; false when it had nothing to say (not sent). */
async function sendDigest(member: NotifiedMember, cadence: DigestCadence, period: Period, zone: string): Promise<boolean> {
  const baseUrl = loadConfig().BASE_URL.replace(/\/+$/, "");
  const content = await collectDigest(member, cadence, period, baseUrl);
  if (isEmpty(content)) return false;
  const email = digestEmail({ content, to: member.email, zone, settingsLink: `${baseUrl}/settings/account#notifications` });
  await sendDigestEmail(email, { userId: member.userId, cadence, periodEnd: period.to });
  return true;
}
