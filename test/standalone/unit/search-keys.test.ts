import { MAX_SEARCH_KEYS, normalizeText, queryKey, searchKeysOf, searchToken } from "../../../lib/search-keys";

const lead = {
  referenceId: "WEB-42",
  data: {
    full_name: "José da Silva",
    email: "Jose.Silva@Example.COM ",
    phone: "+44 20 7946 0000",
    company: "Acme  Ltd",
    message: "Please call me about a quote.",
    zip: "1234567",
  },
};

describe("a submission's search keys", () => {
  test("reference, email, phone, company, the name whole and each word; nothing else", () => {
    expect(searchKeysOf(lead)).toEqual([
      "web-42",
      "jose.silva@example.com",
      "tel:079460000",
      "acme ltd",
      "jose da silva",
      "jose",
      "da",
      "silva",
    ]);
  });

  test("first and last name fields are also found together; the reply-to counts as an email", () => {
    const keys = searchKeysOf({
      referenceId: "A-1",
      data: { first_name: "Ada", last_name: "Lovelace" },
      metadata: { replyTo: "ada@example.org" },
    });
    expect(keys).toEqual(["a-1", "ada@example.org", "ada", "lovelace", "ada lovelace"]);
  });

  test(`at most ${MAX_SEARCH_KEYS}, the reference and emails first`, () => {
    const keys = searchKeysOf({
      referenceId: "R-1",
      data: { name: "one two three four five six seven eight nine", email: "a@b.co" },
    });
    expect(keys).toHaveLength(MAX_SEARCH_KEYS);
    expect(keys.slice(0, 2)).toEqual(["r-1", "a@b.co"]);
  });

  test("a value no one would type (a long text) is not a key", () => {
    expect(searchKeysOf({ referenceId: "R-2", data: { company: "x".repeat(201) } })).toEqual(["r-2"]);
  });
});

describe("a query's key meets the submission's", () => {
  test.each([
    ["  JOSE.SILVA@example.com", "jose.silva@example.com"],
    ["020 7946 0000", "tel:079460000"],
    ["(020) 7946-0000", "tel:079460000"],
    ["web-42", "web-42"],
    ["SILVA", "silva"],
    ["José   da Silva", "jose da silva"],
    ["ＡＣＭＥ Ltd", "acme ltd"],
  ])("%s → %s", (query, key) => {
    expect(queryKey(query)).toBe(key);
    expect(searchKeysOf(lead)).toContain(key);
  });

  test("a query with no letter or digit has no key", () => {
    expect(queryKey("--- !")).toBeUndefined();
  });

  test("a key is stored as a fixed-size digest", () => {
    expect(searchToken("jose.silva@example.com")).toMatch(/^[\w-]{22}$/);
    expect(searchToken("a")).not.toBe(searchToken("b"));
    expect(normalizeText(" A\tB ")).toBe("a b");
  });
});

test("a name's words are split at anything but letters, digits, apostrophes and hyphens", () => {
  expect(searchKeysOf({ referenceId: "R-3", data: { name: `Ada "The Countess" O'Brien-Lovelace` } })).toEqual([
    "r-3",
    `ada "the countess" o'brien-lovelace`,
    "ada",
    "the",
    "countess",
    "o'brien-lovelace",
  ]);
});

test("the name fields together are in the order a name is said, whatever order the stored map gives", () => {
  const data = { surname: "Lovelace", email: "ada@example.org", given_name: "Ada" };
  expect(searchKeysOf({ referenceId: "R-4", data })).toContain("ada lovelace");
  expect(searchKeysOf({ referenceId: "R-4", data: { last_name: "Lovelace", first_name: "Ada" } })).toContain("ada lovelace");
});
