import type { Principal } from "./auth/principal";
import { timelinePage } from "./store/timeline";
import { findSubmissionAndForm } from "./submissions";

/**
 * A submission's timeline (docs/triage.md, "Timeline"), newest first: who changed its status,
 * owner or tags and when, and who added, edited or deleted a note. Two reads and one Query.
 */
export async function readTimeline(principal: Principal, submissionId: string, limit: number, cursor?: string) {
  const { submission } = await findSubmissionAndForm(principal, submissionId);
  const page = await timelinePage(submission.id, limit, cursor);
  return { entries: page.items, nextCursor: page.nextCursor };
}
