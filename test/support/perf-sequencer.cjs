// Jest test sequencer of the performance run (test/run.mjs): jest's own order, with the budgets
// last. Their search and filter fixtures write 10,000 submissions straight to the table and leave
// the local bookkeeper minutes of indexing that nothing reads; a file after them that times the
// bookkeeper (counts-settle, import-speed) first waited for that backlog (about 220 s here).
// Last, they hold up nothing: the stack stops with the backlog unread.
const Sequencer = require("@jest/test-sequencer").default;

const LAST = "/test/local-stack/perf/budgets.test.ts";

class PerfSequencer extends Sequencer {
  async sort(tests) {
    const sorted = [...(await super.sort(tests))];
    return [...sorted.filter((t) => !t.path.endsWith(LAST)), ...sorted.filter((t) => t.path.endsWith(LAST))];
  }
}

module.exports = PerfSequencer;
