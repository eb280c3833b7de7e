/**
 * Items that expire by DynamoDB's TTL (`ttl`, epoch seconds; lib/store/table-definition.ts):
 * submissions under their form's retention (docs/privacy.md, "Retention"). DynamoDB deletes an
 * expired item late, often days after its `ttl`
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/howitworks-ttl.html), so
 * every read of a submission treats one whose `ttl` has passed as gone; these are the store's
 * two ways of saying so, in the function and in a filter expression.
 */

/** Days a form keeps its inbox and its spam submissions; null keeps them until someone deletes them. */
export interface Retention {
  inboxDays: number | null;
  spamDays: number | null;
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Whether an item's TTL has passed (the second it names included, as DynamoDB counts it). */
export const isExpired = (ttl: unknown, now = nowSeconds()) => typeof ttl === "number" && ttl <= now;

/** The filter expression that keeps only items whose TTL has not passed (or that have none). */
export const unexpiredFilter = (now = nowSeconds()) => ({
  expression: "(attribute_not_exists(#ttl) OR #ttl > :ttlNow)",
  names: { "#ttl": "ttl" },
  values: { ":ttlNow": now },
});
