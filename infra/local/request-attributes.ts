/**
 * The attribute names a DynamoDB write request names, as IAM's `dynamodb:Attributes` condition
 * key sees them: the top-level names of its `Key` or `Item`, and of every document path in its
 * `UpdateExpression` and `ConditionExpression` (a `#name` placeholder resolved through
 * `ExpressionAttributeNames`; a nested path counts as the attribute it starts at, since access is
 * granted per top-level attribute). `ReturnValues` is not among them: what a write returns is a
 * read, and the functions may read every item anyway (docs/deployment.md, "Least privilege").
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/specifying-conditions.html
 */

/** The words of the expression grammar that are not attribute names (functions are followed by `(`). */
const KEYWORDS = new Set(["set", "remove", "add", "delete", "and", "or", "not", "between", "in"]);

const SEGMENT = "(?:#[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*)";
/** A document path (its first segment captured), then whether a `(` follows (a function's name). */
const PATH = new RegExp(String.raw`(${SEGMENT})(?:\s*\.\s*${SEGMENT}|\s*\[\s*\d+\s*\])*(\s*\()?`, "g");

/** The top-level attribute names of an update or condition expression. */
export function expressionAttributes(expression: string | undefined, names: Record<string, string> = {}): string[] {
  if (!expression) return [];
  // Values (`:v`) are no names; dropping them first keeps `:v` from reading as a name `v`.
  const withoutValues = expression.replace(/:[A-Za-z0-9_]+/g, " ");
  const found: string[] = [];
  for (const match of withoutValues.matchAll(PATH)) {
    const [, first, call] = match;
    if (!first || call !== undefined) continue;
    if (first.startsWith("#")) {
      const name = names[first];
      if (name === undefined) throw new Error(`Expression names ${first} but ExpressionAttributeNames does not`);
      found.push(name);
    } else if (!KEYWORDS.has(first.toLowerCase())) {
      found.push(first);
    }
  }
  return found;
}

/** The names of an item or key map; attributes left `undefined` are not sent (removeUndefinedValues). */
export const itemAttributes = (item: Record<string, unknown> | undefined): string[] =>
  Object.entries(item ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name]) => name);

/** One write's own parameters: an item or key, and its expressions. */
export interface WriteParameters {
  Item?: Record<string, unknown>;
  Key?: Record<string, unknown>;
  UpdateExpression?: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
}

/** Every attribute name `write` names, each once. */
export function writeAttributes(write: WriteParameters): string[] {
  const names = write.ExpressionAttributeNames ?? {};
  return [
    ...new Set([
      ...itemAttributes(write.Item ?? write.Key),
      ...expressionAttributes(write.UpdateExpression, names),
      ...expressionAttributes(write.ConditionExpression, names),
    ]),
  ];
}
