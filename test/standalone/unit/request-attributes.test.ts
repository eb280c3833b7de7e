import { expressionAttributes, writeAttributes } from "../../../infra/local/request-attributes";

/** What IAM's dynamodb:Attributes sees of a write, as the local grant check reads it (infra/local/request-attributes.ts). */
describe("the attributes a write names", () => {
  test("update expressions: every clause, placeholders resolved, values and functions left out", () => {
    expect(
      expressionAttributes(
        "ADD #count :one, seq :one SET #ttl = if_not_exists(#ttl, :ttl), doneAt = :now REMOVE manual DELETE tags :t",
        {
          "#count": "count",
          "#ttl": "ttl",
        },
      ),
    ).toEqual(["count", "seq", "ttl", "ttl", "doneAt", "manual", "tags"]);
  });

  test("a nested path is the attribute it starts at, whatever its segments are named", () => {
    expect(
      expressionAttributes("SET #F.#f0 = if_not_exists(#F.#f0, :f0), settings.notifyEmails[2] = :e, a.b[0].c = :c", {
        "#F": "fields",
        "#f0": "__proto__",
      }),
    ).toEqual(["fields", "fields", "settings", "a"]);
  });

  test("condition expressions: comparisons, functions' arguments, keywords are no names", () => {
    expect(
      expressionAttributes(
        "attribute_exists(pk) AND NOT (#role <> :owner) OR size(tags) BETWEEN :a AND :b AND begins_with(sk, :p) AND status IN (:x, :y) AND attribute_type(revokedAt, :null)",
        { "#role": "role" },
      ),
    ).toEqual(["pk", "role", "tags", "sk", "status", "revokedAt"]);
  });

  test("a placeholder the request does not define is an error, not a name", () => {
    expect(() => expressionAttributes("SET #missing = :v", {})).toThrow(/#missing/);
  });

  test("a put names its item's attributes and its condition's; an undefined one is not sent", () => {
    expect(
      writeAttributes({
        Item: { pk: "ORG#o", sk: "USER#u", role: "owner", emailVerifiedAt: undefined },
        ConditionExpression: "attribute_not_exists(pk) OR #t <= :now",
        ExpressionAttributeNames: { "#t": "ttl" },
      }),
    ).toEqual(["pk", "sk", "role", "ttl"]);
  });

  test("an update names its key, its changes and its condition, each once", () => {
    expect(
      writeAttributes({
        Key: { pk: { S: "ORG#o" }, sk: { S: "META" } },
        UpdateExpression: "SET #field = :value, updatedAt = :now",
        ConditionExpression: "attribute_exists(pk)",
        ExpressionAttributeNames: { "#field": "plan" },
      }),
    ).toEqual(["pk", "sk", "plan", "updatedAt"]);
  });
});
