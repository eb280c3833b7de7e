import { Cell, Row, Table } from "../../components/ui/table";
import { Muted } from "../../components/ui/text";
import type { Delivery } from "./queries";
import { formatPrecise, latencyWords, responseWords } from "./words";

const COLUMNS = [
  { label: "Attempt" },
  { label: "Time" },
  { label: "Response" },
  { label: "Latency" },
  { label: "Error" },
  { label: "Next retry" },
];

/** Every attempt of one delivery: when, what the receiver answered, how long it took, what came next. */
export function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) {
    return <Muted>No attempt yet.</Muted>;
  }
  return (
    <>
      <Table caption={`Attempts of delivery ${delivery.id}`} columns={COLUMNS} compact>
        {delivery.attempts.map((attempt) => (
          <Row key={attempt.number}>
            <Cell>
              {attempt.number}
              {attempt.trigger === "manual" ? " (replay)" : ""}
            </Cell>
            <Cell>
              <time dateTime={attempt.attemptedAt}>{formatPrecise(attempt.attemptedAt)}</time>
            </Cell>
            <Cell>{responseWords(attempt.statusCode)}</Cell>
            <Cell>{latencyWords(attempt.durationMs)}</Cell>
            <Cell className="break-words">{attempt.error ?? "—"}</Cell>
            <Cell>{attempt.nextAttemptAt ? formatPrecise(attempt.nextAttemptAt) : "—"}</Cell>
          </Row>
        ))}
      </Table>
      {delivery.attemptsOmitted > 0 && (
        <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          {delivery.attemptsOmitted} older attempts are not listed (the 20 most recent are kept).
        </p>
      )}
    </>
  );
}
