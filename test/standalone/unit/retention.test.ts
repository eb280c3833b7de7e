import {
  DEFAULT_RETENTION,
  defaultRetentionOf,
  expiresAtOf,
  expiryOf,
  isExpired,
  mergedRetention,
  retentionOf,
  sameRetention,
} from "../../../lib/retention";

/** The rules every writer of a submission's expiry shares (docs/privacy.md, "Retention"). */

const createdAt = "2026-11-01T10:00:00.500Z";
const arrived = Math.floor(Date.parse(createdAt) / 1000);

describe("expiryOf", () => {
  test("an inbox submission: its arrival plus the inbox's days; a spam one: the spam's", () => {
    const retention = { inboxDays: 90, spamDays: 30 };
    expect(expiryOf(createdAt, false, retention)).toBe(arrived + 90 * 86_400);
    expect(expiryOf(createdAt, true, retention)).toBe(arrived + 30 * 86_400);
  });

  test("a state kept forever has no expiry", () => {
    expect(expiryOf(createdAt, false, { inboxDays: null, spamDays: 30 })).toBeUndefined();
    expect(expiryOf(createdAt, true, { inboxDays: 30, spamDays: null })).toBeUndefined();
  });

  test("whole epoch seconds, as DynamoDB's TTL reads them", () => {
    expect(Number.isInteger(expiryOf(createdAt, false, { inboxDays: 1, spamDays: 1 }))).toBe(true);
  });
});

describe("retentionOf", () => {
  test("absent (a form or site saved before retention existed): inbox kept, spam 30 days", () => {
    expect(retentionOf({})).toEqual({ inboxDays: null, spamDays: 30 });
    expect(defaultRetentionOf({})).toEqual(DEFAULT_RETENTION);
  });

  test("a stored null keeps forever, not the default", () => {
    expect(retentionOf({ retention: { inboxDays: 7, spamDays: null } })).toEqual({ inboxDays: 7, spamDays: null });
  });
});

test("a change merges: a value left out keeps its own, null keeps forever", () => {
  const current = { inboxDays: 90, spamDays: 30 };
  expect(mergedRetention(current, { spamDays: null })).toEqual({ inboxDays: 90, spamDays: null });
  expect(mergedRetention(current, {})).toEqual(current);
  expect(sameRetention(mergedRetention(current, { inboxDays: 90 }), current)).toBe(true);
  expect(sameRetention(mergedRetention(current, { inboxDays: 91 }), current)).toBe(false);
});

test("expiresAt is the ttl as an ISO date-time, null without one", () => {
  expect(expiresAtOf(arrived)).toBe("2026-11-01T10:00:00.000Z");
  expect(expiresAtOf(undefined)).toBeNull();
  expect(expiresAtOf("soon")).toBeNull();
});

test("an item is expired from the second its ttl names", () => {
  expect(isExpired(100, 99)).toBe(false);
  expect(isExpired(100, 100)).toBe(true);
  expect(isExpired(undefined, 100)).toBe(false);
});
