import type { FilterPattern } from "./stream-filter-match";

/**
 * Which table stream records become intake queue messages. Plain data (no CDK import) so the
 * EventBridge Pipe (infra/intake-pipeline.ts), its test and the local stream follower
 * (infra/local/stream-follower.ts, through infra/stream-filter-match.ts) all apply the same rule.
 *
 * The list is the pipe's FilterCriteria.Filters: a record passes when ANY pattern matches (at most
 * 5 patterns). Within a pattern every field must match.
 * - Inserted submissions that are not spam. Spam is stored but triggers nothing.
 * - Inserted release markers: unflagging a submission the pipeline has not taken up puts
 *   `RELEASE#<submissionId>` in the same transaction (lib/store/moderation.ts, setSpamState).
 *   Not the submission's own MODIFY: a MODIFY rule on the new image would also pass every later
 *   write to a released submission (its lead, ...).
 * - Inserted change entries of a submission's timeline (`submission_change`: a status, owner or
 *   tags change, written in the same transaction), the outbox of the `submission.updated` event
 *   (lib/pipeline/process-change.ts). They share the release markers' pattern (one type list:
 *   both are plain inserts), which keeps a pattern free of the five. Timeline note events
 *   (`submission_note_event`) and the submission's own MODIFY pass nothing.
 * - Purge jobs, inserted and modified: each pass of a purge bumps its job item, and that MODIFY
 *   queues the next pass (lib/purge.ts).
 * - Retention jobs, inserted and modified: a retention change writes (or replaces) the form's job,
 *   and each pass bumps it, queueing the next (lib/retention-job.ts).
 * - Import jobs share the retention jobs' pattern (one type list, a pattern free of the five):
 *   the import route writes the job, each pass bumps it (lib/import-job.ts). The submissions an
 *   import stores carry `imported` and match no pattern: never notified, qualified or delivered.
 * REMOVE records never match: they have no new image. The stream carries old images too
 * (NEW_AND_OLD_IMAGES, for the bookkeeper: infra/bookkeeper-filter.ts); no pattern reads them.
 *
 * `eventName` is filterable on a DynamoDB stream source although the pipes filtering page lists
 * it among fields added by the poller; AWS's own DynamoDB→SQS pipe tutorial filters on it
 * (https://docs.aws.amazon.com/eventbridge/latest/userguide/pipes-tutorial-create-dynamodb-sqs.html).
 * Pattern syntax: https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-pipes-event-filtering.html
 */
export const INTAKE_FILTER_PATTERNS = [
  {
    eventName: ["INSERT"],
    dynamodb: {
      NewImage: {
        type: { S: ["submission"] },
        isSpam: { BOOL: [false] },
        // An imported submission is never notified or delivered (lib/import-job.ts): its mark's leaf must be absent.
        imported: { M: { importId: { S: [{ exists: false }] } } },
      },
    },
  },
  {
    eventName: ["INSERT", "MODIFY"],
    dynamodb: { NewImage: { type: { S: ["purge"] } } },
  },
  {
    eventName: ["INSERT"],
    dynamodb: { NewImage: { type: { S: ["release", "submission_change"] } } },
  },
  {
    eventName: ["INSERT", "MODIFY"],
    dynamodb: { NewImage: { type: { S: ["retention", "import"] }, status: { S: ["running"] } } },
  },
] as const satisfies readonly FilterPattern[];
