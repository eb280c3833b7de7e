import { linesMatching } from "../../support/source-lines";

/**
 * Two of the dashboard's seams (docs/dashboard.md): a query key is built by web/src/api/keys.ts,
 * so a feature invalidates another's data by the resource, never by a copy of its key; and what
 * the signed-in person's role allows is decided in web/src/lib/access.ts, the one access module.
 */
const WEB = "web/src";
const KEYS = "web/src/api/keys.ts";
const ACCESS = "web/src/lib/access.ts";

/** `queryKey: [...]` written out, rather than one of api/keys.ts's keys. */
const LITERAL_KEY = /\bqueryKey\s*:\s*\[/;
/** The signed-in person's role compared to one. */
const ROLE_DECISION = /\bme\??\.role\s*[!=]==|[!=]==\s*me\??\.role\b/;

test("the patterns catch what they are for", () => {
  expect(LITERAL_KEY.test('queryClient.invalidateQueries({ queryKey: ["forms", id, "submissions"] })')).toBe(true);
  expect(LITERAL_KEY.test("queryClient.invalidateQueries({ queryKey: queryKeys.forms.one(id) })")).toBe(false);
  expect(ROLE_DECISION.test('const mayDeleteAny = me.role === "owner" || me.role === "admin";')).toBe(true);
  expect(ROLE_DECISION.test('if (me.role !== "owner") return;')).toBe(true);
  expect(ROLE_DECISION.test("<dd>{ROLE_NAMES[me.role]}</dd>")).toBe(false);
});

test(`query keys are written only in ${KEYS}`, () => {
  expect(linesMatching(WEB, LITERAL_KEY, [KEYS])).toEqual([]);
});

test(`the signed-in person's role is judged only in ${ACCESS}`, () => {
  expect(linesMatching(WEB, ROLE_DECISION, [ACCESS])).toEqual([]);
});
