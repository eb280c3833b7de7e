import type { Context, DynamoDBStreamEvent } from "aws-lambda";
import { keepBooks } from "../../lib/bookkeeping/keep-books";
import { instrument } from "../../lib/metrics/invocation";

/** The bookkeeper's route in its "request done" line. */
const STREAM_ROUTE = "stream";

/**
 * The bookkeeper (BOOKKEEPER in functions/routes.ts): the table stream's submission records,
 * in batches, straight from Lambda's event source mapping (infra/bookkeeping.ts), handed to the
 * bookkeeping jobs (lib/bookkeeping/keep-books.ts). No partial batch response: a failure throws,
 * and the whole batch comes back, which the jobs' checkpoints make harmless. Its "request done"
 * line has the route `stream` and, as its status, 0 when the batch is done, else the number of
 * records it failed.
 */
export const handler = (event: DynamoDBStreamEvent, context?: Pick<Context, "awsRequestId" | "functionName">) =>
  instrument(
    { requestId: context?.awsRequestId ?? crypto.randomUUID(), functionName: context?.functionName ?? "bookkeeper" },
    async () => {
      await keepBooks(event.Records);
    },
    (outcome) => ({ route: STREAM_ROUTE, status: outcome.ok ? 0 : event.Records.length }),
  );
