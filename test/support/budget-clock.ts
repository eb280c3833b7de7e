/**
 * Follows a request with a time budget (erasure, access request) through lib/, with a clock
 * within the budget at each call's first reading and past it at every later one: each call
 * handles one form and answers a cursor. Calls `step` with each cursor until it answers none
 * (at most 10 calls) and answers every answer, in order.
 */
export async function followCursors<T>(
  step: (cursor: string | undefined, clock: () => number) => Promise<T>,
  cursorOf: (answer: T) => string | null,
): Promise<T[]> {
  const answers: T[] = [];
  let cursor: string | undefined;
  do {
    let calls = 0;
    const answer = await step(cursor, () => (calls++ === 0 ? 0 : Number.MAX_SAFE_INTEGER));
    answers.push(answer);
    cursor = cursorOf(answer) ?? undefined;
  } while (cursor && answers.length < 10);
  return answers;
}
