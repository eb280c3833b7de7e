import { linesMatching } from "../../support/source-lines";

/**
 * Comments say why, not which ticket asked (CONTRIBUTING.md): "issue 25" tells a newcomer
 * nothing the code's reason or a docs anchor would not tell better, and it goes stale as issues
 * close. A reference to another project's issue tracker (a URL) is a citation, and stays.
 */
const OUR_ISSUE = /\bissue\s+#?\d+\b/i;
const CITATION = /https?:\/\/\S*issues?\/\d+/i;
const FOLDERS = ["lib", "functions", "infra", "web/src", "test"];

test("the pattern catches what it is for", () => {
  expect(OUR_ISSUE.test(" * this takes about 1 ms in all (docs/performance.md, issue 25).")).toBe(true);
  expect(OUR_ISSUE.test("// Contract A of Issue #29: a webhook's compatibility")).toBe(true);
  expect(OUR_ISSUE.test(" * (docs/performance.md, section 14).")).toBe(false);
  expect(CITATION.test(" * (https://github.com/nodejs/node/issues/55428)")).toBe(true);
});

test.each(FOLDERS)("no comment under %s names one of our issues", (folder) => {
  const lines = linesMatching(folder, OUR_ISSUE, []).filter((line) => !CITATION.test(line));
  // This file's own examples name issues on purpose.
  expect(lines.filter((line) => !line.startsWith("test/standalone/unit/comments-say-why.test.ts"))).toEqual([]);
});
