/**
 * The subset of EventBridge event-pattern matching that the intake pipe's filters use, so the
 * local stream follower applies the very constants the deployed pipe does
 * (infra/intake-filter.ts). Semantics, per
 * https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-event-patterns.html:
 * - every field named in a pattern must be present in the event and match (AND);
 * - a nested object in the pattern descends into the event's object at that field;
 * - an array of literals lists the allowed values; matching is exact, type included
 *   (`[false]` matches the boolean false, not the string "false"); when the event's value is
 *   itself an array, one of its elements must be allowed;
 * - a list of patterns (a pipe's FilterCriteria.Filters) matches when any pattern does (OR).
 * - `{ exists: false }` in a field's list matches when the event lacks the field (a nested
 *   pattern whose every leaf is `exists: false` matches an event lacking its object too);
 *   `{ exists: true }` when it has it. AWS evaluates `exists` on leaf nodes only
 *   (https://docs.aws.amazon.com/eventbridge/latest/userguide/eb-create-pattern-operators.html#eb-filtering-exists-matching),
 *   so a pattern names the leaf (`imported.M.importId.S`), never an object.
 * Other content filters (`prefix`, `anything-but`, `numeric`, ...) are not supported here:
 * `assertSupportedPattern` rejects them, so a pattern the follower cannot evaluate fails loudly
 * instead of matching differently from AWS.
 */
export type FilterLiteral = string | number | boolean | null;
export interface FilterExists {
  readonly exists: boolean;
}
export type FilterRule = FilterLiteral | FilterExists;

export interface FilterPattern {
  readonly [field: string]: readonly FilterRule[] | FilterPattern;
}

/** A pipe accepts at most 5 filters (FilterCriteria.Filters); they are ORed. */
export const MAX_FILTERS = 5;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isLiteral = (value: unknown): value is FilterLiteral =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

const isExists = (value: unknown): value is FilterExists =>
  isObject(value) && Object.keys(value).length === 1 && typeof value.exists === "boolean";

/** Throws unless `pattern` uses only nested objects and non-empty arrays of literals. */
export function assertSupportedPattern(pattern: unknown, path = "$"): asserts pattern is FilterPattern {
  if (!isObject(pattern) || Object.keys(pattern).length === 0) {
    throw new Error(`Filter pattern at ${path} must be a non-empty object`);
  }
  for (const [field, rule] of Object.entries(pattern)) {
    const at = `${path}.${field}`;
    if (Array.isArray(rule)) {
      if (rule.length === 0 || !rule.every((r) => isLiteral(r) || isExists(r))) {
        throw new Error(`Filter pattern at ${at} must list literal values (content filters are not supported here)`);
      }
    } else {
      assertSupportedPattern(rule, at);
    }
  }
}

function valueMatches(allowed: readonly FilterRule[], value: unknown): boolean {
  if (Array.isArray(value)) return value.some((element) => valueMatches(allowed, element));
  return allowed.some((rule) => (isExists(rule) ? rule.exists : rule === value));
}

/** Whether a rule matches an event that lacks its field: only `exists: false`, at every leaf. */
function absentMatches(rule: readonly FilterRule[] | FilterPattern): boolean {
  if (Array.isArray(rule)) return rule.some((r) => isExists(r) && !r.exists);
  return Object.values(rule as FilterPattern).every(absentMatches);
}

/** Whether `event` matches one pattern. */
export function matchesPattern(pattern: FilterPattern, event: unknown): boolean {
  if (!isObject(event)) return false;
  for (const [field, rule] of Object.entries(pattern)) {
    if (!Object.hasOwn(event, field)) {
      if (!absentMatches(rule)) return false;
      continue;
    }
    const value = event[field];
    if (Array.isArray(rule)) {
      if (!valueMatches(rule as readonly FilterRule[], value)) return false;
    } else if (!matchesPattern(rule as FilterPattern, value)) {
      return false;
    }
  }
  return true;
}

/** Whether `event` matches any of the patterns (a pipe's filter list). */
export function matchesAny(patterns: readonly FilterPattern[], event: unknown): boolean {
  return patterns.some((pattern) => matchesPattern(pattern, event));
}
