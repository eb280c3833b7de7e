import { BOOKKEEPER_FILTER_PATTERNS } from "../../../infra/bookkeeper-filter";
import { INTAKE_FILTER_PATTERNS } from "../../../infra/intake-filter";
import { assertSupportedPattern, matchesAny, matchesPattern } from "../../../infra/stream-filter-match";
import { streamRecord } from "./support/records";

const submission = (extra: Record<string, unknown> = {}) => ({
  pk: "SUB#sub_1",
  sk: "SUB",
  type: "submission",
  formId: "frm_1",
  isSpam: false,
  fields: { email: "ada@example.com" },
  ...extra,
});
const purgeJob = { pk: "PURGE#frm_1", sk: "PURGE", type: "purge", formId: "frm_1", passes: 0, deleted: 0 };
const passes = (record: Record<string, unknown>) => matchesAny(INTAKE_FILTER_PATTERNS, record);

describe("the intake filter list, as the local follower applies it", () => {
  test("every pattern uses only what the matcher implements, and a pipe takes them all", () => {
    for (const pattern of INTAKE_FILTER_PATTERNS) expect(() => assertSupportedPattern(pattern)).not.toThrow();
    expect(INTAKE_FILTER_PATTERNS.length).toBeLessThanOrEqual(5);
  });

  test("passes inserted submissions that are not spam", () => {
    expect(passes(streamRecord("INSERT", submission()))).toBe(true);
  });

  test("drops an imported submission, spam or not: it is never notified or delivered (lib/import-job.ts)", () => {
    const imported = { imported: { importId: "imp_1", source: "formspree", line: 2 } };
    expect(passes(streamRecord("INSERT", submission(imported)))).toBe(false);
    expect(passes(streamRecord("INSERT", submission({ ...imported, isSpam: true })))).toBe(false);
  });

  test("passes running import jobs, inserted and modified; never a finished one, nor its lock", () => {
    const job = {
      pk: "IMPORT#frm_1",
      sk: "JOB#imp_1",
      type: "import",
      id: "imp_1",
      formId: "frm_1",
      status: "running",
      cursor: 0,
    };
    expect(passes(streamRecord("INSERT", job))).toBe(true);
    expect(passes(streamRecord("MODIFY", { ...job, cursor: 1000 }, job))).toBe(true);
    expect(passes(streamRecord("MODIFY", { ...job, status: "finished" }, job))).toBe(false);
    expect(passes(streamRecord("REMOVE", job))).toBe(false);
    expect(passes(streamRecord("INSERT", { pk: "IMPORT#frm_1", sk: "RUNNING", type: "import_lock", importId: "imp_1" }))).toBe(
      false,
    );
  });

  test("drops spam, and submissions whose spam flag is missing or not a boolean", () => {
    expect(passes(streamRecord("INSERT", submission({ isSpam: true })))).toBe(false);
    expect(passes(streamRecord("INSERT", submission({ isSpam: undefined })))).toBe(false);
    expect(passes(streamRecord("INSERT", submission({ isSpam: "false" })))).toBe(false);
    expect(passes(streamRecord("INSERT", submission({ isSpam: 0 })))).toBe(false);
  });

  test("drops modified and removed submissions, whatever their old image (the stream carries it now)", () => {
    expect(passes(streamRecord("MODIFY", submission()))).toBe(false);
    expect(passes(streamRecord("REMOVE", submission()))).toBe(false);
    // Unflagged after the pipeline took it up: old image spam, new not; still no message.
    expect(passes(streamRecord("MODIFY", submission(), submission({ isSpam: true })))).toBe(false);
    expect(passes(streamRecord("MODIFY", submission({ isSpam: true }), submission()))).toBe(false);
  });

  test("passes inserted and modified purge jobs, never their removal", () => {
    expect(passes(streamRecord("INSERT", purgeJob))).toBe(true);
    expect(passes(streamRecord("MODIFY", { ...purgeJob, passes: 3, deleted: 1500 }))).toBe(true);
    expect(passes(streamRecord("REMOVE", purgeJob))).toBe(false);
  });

  test("passes inserted release markers only: never their rewrite or removal, nor a submission's MODIFY", () => {
    const marker = {
      pk: "RELEASE#sub_1",
      sk: "RELEASE",
      type: "release",
      submissionId: "sub_1",
      releasedAt: "2026-11-22T00:00:00.000Z",
    };
    expect(passes(streamRecord("INSERT", marker))).toBe(true);
    expect(passes(streamRecord("MODIFY", marker))).toBe(false);
    expect(passes(streamRecord("REMOVE", marker))).toBe(false);
    // A released submission's later writes (its lead, a re-flag) are MODIFY records of the submission.
    expect(passes(streamRecord("MODIFY", submission({ releasedAt: "2026-11-22T00:00:00.000Z", lead: { score: 80 } })))).toBe(
      false,
    );
  });

  test("passes inserted submission change entries (the outbox of submission.updated) only: never note events, rewrites or removals", () => {
    const change = {
      pk: "SUB#sub_1",
      sk: "TL#2026-11-27T00:00:00.000Z#chg_1",
      type: "submission_change",
      id: "chg_1",
      submissionId: "sub_1",
      at: "2026-11-27T00:00:00.000Z",
      actor: { type: "member", id: "usr_1", name: "Ana" },
      changes: { status: { from: "new", to: "contacted" } },
    };
    expect(passes(streamRecord("INSERT", change))).toBe(true);
    expect(passes(streamRecord("MODIFY", change))).toBe(false);
    expect(passes(streamRecord("REMOVE", change))).toBe(false);
    expect(passes(streamRecord("INSERT", { ...change, type: "submission_note_event", changes: undefined }))).toBe(false);
    // The change's own submission write is a MODIFY of the submission: never a message.
    expect(passes(streamRecord("MODIFY", submission({ status: "contacted" }), submission()))).toBe(false);
  });

  test("drops every other item type, and a type that is not a string", () => {
    for (const type of ["form", "webhook", "site", "organization", "member", "session", "Submission", "purge ", "note", "tag"]) {
      expect(passes(streamRecord("INSERT", { pk: "X#1", sk: "X", type, isSpam: false }))).toBe(false);
    }
    expect(passes(streamRecord("INSERT", { pk: "X#1", sk: "X", isSpam: false }))).toBe(false);
    expect(passes(streamRecord("INSERT", { pk: "X#1", sk: "X", type: ["submission"], isSpam: false }))).toBe(false);
  });

  test("drops what is not a stream record at all", () => {
    expect(passes({})).toBe(false);
    expect(passes({ eventName: "INSERT" })).toBe(false);
    expect(passes({ eventName: "INSERT", dynamodb: "{}" })).toBe(false);
  });
});

describe("the bookkeeper's filter list, as the local follower applies it", () => {
  const counted = (record: Record<string, unknown>) => matchesAny(BOOKKEEPER_FILTER_PATTERNS, record);

  test("every pattern uses only what the matcher implements, and an event source mapping takes them all", () => {
    for (const pattern of BOOKKEEPER_FILTER_PATTERNS) expect(() => assertSupportedPattern(pattern)).not.toThrow();
    expect(BOOKKEEPER_FILTER_PATTERNS.length).toBeLessThanOrEqual(5);
  });

  test("passes stored submissions, spam or not, and removed ones (by their old image)", () => {
    expect(counted(streamRecord("INSERT", submission()))).toBe(true);
    expect(counted(streamRecord("INSERT", submission({ isSpam: true })))).toBe(true);
    expect(counted(streamRecord("REMOVE", submission()))).toBe(true);
    expect(counted(streamRecord("REMOVE", submission({ isSpam: true })))).toBe(true);
  });

  test("passes a submission's modifications (its filter entries and status counts follow them), drops every other item", () => {
    expect(counted(streamRecord("MODIFY", submission({ isSpam: true }), submission()))).toBe(true);
    expect(counted(streamRecord("MODIFY", submission({ status: "contacted" }), submission()))).toBe(true);
    for (const item of [purgeJob, { pk: "FORM#f", sk: "COUNTS", type: "form_counts" }, { pk: "X#1", sk: "X" }]) {
      for (const eventName of ["INSERT", "MODIFY", "REMOVE"] as const) expect(counted(streamRecord(eventName, item))).toBe(false);
    }
  });

  test("passes a forward-only marker's removal and a submission's strip (its values deleted), nothing else of either", () => {
    const marker = { pk: "FORWARD#sub_1", sk: "FORWARD", type: "forward_marker", submissionId: "sub_1", ttl: 1 };
    expect(counted(streamRecord("REMOVE", marker))).toBe(true);
    expect(counted(streamRecord("INSERT", marker))).toBe(false);
    expect(counted(streamRecord("MODIFY", { ...marker, emailsDone: true }, marker))).toBe(false);
    const stripped = submission({ valuesDeleted: true, valuesDeletedAt: "2026-11-27T00:00:00.000Z" });
    expect(counted(streamRecord("MODIFY", stripped, submission()))).toBe(true);
    // A stored lead passes too (a literal pattern cannot tell what changed); the jobs find nothing to do.
    expect(counted(streamRecord("MODIFY", submission({ lead: { score: 80 } }), submission()))).toBe(true);
  });
});

describe("the pattern matcher", () => {
  test("nested objects must all match (AND); the list matches when any pattern does (OR)", () => {
    const pattern = { a: ["x"], b: { c: [1, 2] } };
    expect(matchesPattern(pattern, { a: "x", b: { c: 2 }, extra: true })).toBe(true);
    expect(matchesPattern(pattern, { a: "x", b: { c: 3 } })).toBe(false);
    expect(matchesPattern(pattern, { a: "x" })).toBe(false);
    expect(matchesPattern(pattern, { a: "y", b: { c: 1 } })).toBe(false);
    expect(matchesAny([pattern, { a: ["y"] }], { a: "y" })).toBe(true);
    expect(matchesAny([], { a: "y" })).toBe(false);
  });

  test("values match exactly, type included; null matches only null", () => {
    expect(matchesPattern({ v: [false] }, { v: false })).toBe(true);
    expect(matchesPattern({ v: [false] }, { v: "false" })).toBe(false);
    expect(matchesPattern({ v: [1] }, { v: "1" })).toBe(false);
    expect(matchesPattern({ v: [null] }, { v: null })).toBe(true);
    expect(matchesPattern({ v: [null] }, {})).toBe(false);
  });

  test("an array in the event matches when one of its elements is allowed", () => {
    expect(matchesPattern({ tags: ["b"] }, { tags: ["a", "b"] })).toBe(true);
    expect(matchesPattern({ tags: ["c"] }, { tags: ["a", "b"] })).toBe(false);
  });

  test("a field inherited from Object.prototype is not a field of the event", () => {
    expect(matchesPattern({ constructor: { name: ["Object"] } }, {})).toBe(false);
  });

  test("exists: false matches an absent field, and a nested pattern of absent leaves an absent object; exists: true a present one", () => {
    const absent = { a: ["x"], m: { k: { S: [{ exists: false }] } } };
    expect(matchesPattern(absent, { a: "x" })).toBe(true);
    expect(matchesPattern(absent, { a: "x", m: {} })).toBe(true);
    expect(matchesPattern(absent, { a: "x", m: { k: {} } })).toBe(true);
    expect(matchesPattern(absent, { a: "x", m: { k: { S: "v" } } })).toBe(false);
    expect(matchesPattern(absent, { a: "y" })).toBe(false);
    expect(matchesPattern({ v: [{ exists: true }] }, { v: "anything" })).toBe(true);
    expect(matchesPattern({ v: [{ exists: true }] }, {})).toBe(false);
    // A nested pattern with a literal leaf still needs its object.
    expect(matchesPattern({ m: { k: ["x"], j: [{ exists: false }] } }, {})).toBe(false);
  });

  test("content filters it does not implement are refused, not misread", () => {
    expect(() => assertSupportedPattern({ type: [{ prefix: "sub" }] })).toThrow(/literal values/);
    expect(() => assertSupportedPattern({ type: [{ exists: "yes" }] })).toThrow(/literal values/);
    expect(() => assertSupportedPattern({ type: [{ exists: true, prefix: "x" }] })).toThrow(/literal values/);
    expect(() => assertSupportedPattern({ type: [] })).toThrow(/literal values/);
    expect(() => assertSupportedPattern({})).toThrow(/non-empty object/);
    expect(() => assertSupportedPattern({ a: { b: "x" } })).toThrow(/non-empty object/);
  });
});
