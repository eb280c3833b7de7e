import type { FilterPattern } from "./stream-filter-match";

/**
 * Which table stream records the bookkeeper receives (its event source mapping's FilterCriteria,
 * infra/bookkeeping.ts; the local stream follower applies the same patterns through
 * infra/stream-filter-match.ts): stored submissions (INSERT, by their new image) and removed ones
 * (REMOVE, by their old image, which the table's NEW_AND_OLD_IMAGES stream carries). Nothing
 * else costs an invocation: Lambda drops the records no pattern matches and does not bill them
 * (https://docs.aws.amazon.com/lambda/latest/dg/invocation-eventfiltering.html). A record passes
 * when ANY pattern matches; within a pattern every field must.
 * Every MODIFY of a submission passes too: a triage change (status, owner, tags), a moderation
 * and a retention re-dating move its filter entries and its status counts
 * (lib/bookkeeping/filter-submissions.ts, count-submissions.ts), and a forward-only
 * submission's strip (`valuesDeleted: true`) deletes its search entries. A literal pattern
 * cannot tell which attributes changed, so the other MODIFYs (a stored lead) pass as well and
 * change nothing: one more record in a batch, not an invocation per submission (the bookkeeper
 * takes batches). Content filters (`exists`) are not used: the local follower evaluates
 * literals only (infra/stream-filter-match.ts).
 */
export const BOOKKEEPER_FILTER_PATTERNS = [
  { eventName: ["INSERT"], dynamodb: { NewImage: { type: { S: ["submission"] } } } },
  { eventName: ["REMOVE"], dynamodb: { OldImage: { type: { S: ["submission"] } } } },
  // Forward-only forms (lib/bookkeeping/forward-only.ts): a marker's removal (its bound passed, or
  // the values were deleted), and a submission whose values were deleted (its search entries go).
  { eventName: ["REMOVE"], dynamodb: { OldImage: { type: { S: ["forward_marker"] } } } },
  // A submission's modification (see above; a forward-only strip among them).
  { eventName: ["MODIFY"], dynamodb: { NewImage: { type: { S: ["submission"] } } } },
] as const satisfies readonly FilterPattern[];
