import { type Account, api, createSite } from "../../support/api";
import { agencyOwner, code, createKey } from "../../support/api-keys";

describe("bad input gets a 4xx with a code", () => {
  let owner: Account;
  let keyId: string;
  beforeAll(async () => {
    owner = await agencyOwner("bad-input");
    keyId = (await createKey(owner)).id;
  });

  const post = (body: unknown) => api("POST", "/api/v1/api-keys", { token: owner.token, body });

  test("malformed JSON", async () => {
    for (const [method, path] of [
      ["POST", "/api/v1/api-keys"],
      ["PUT", `/api/v1/api-keys/${keyId}`],
    ]) {
      const res = await api(method as string, path as string, {
        token: owner.token,
        rawBody: '{"name": "x",',
        headers: { "content-type": "application/json" },
      });
      expect([res.status, code(res)]).toEqual([400, "INVALID_JSON"]);
    }
  });

  test.each([
    ["a missing name", {}],
    ["an empty name", { name: "" }],
    ["a blank name", { name: "   " }],
    ["a 256-character name", { name: "n".repeat(256) }],
    ["a numeric name", { name: 5 }],
    ["permissions as a string", { name: "x", permissions: "sites.view" }],
    ["a non-string permission", { name: "x", permissions: [1] }],
    ["an empty permission list", { name: "x", permissions: [] }],
    ["duplicate permissions", { name: "x", permissions: ["sites.view", "sites.view"] }],
    ["a non-numeric expiresInDays", { name: "x", expiresInDays: "thirty" }],
    ["a numeric string expiresInDays", { name: "x", expiresInDays: "30" }],
    ["a zero expiresInDays", { name: "x", expiresInDays: 0 }],
    ["a negative expiresInDays", { name: "x", expiresInDays: -1 }],
    ["a fractional expiresInDays", { name: "x", expiresInDays: 1.5 }],
    ["an expiresInDays over ten years", { name: "x", expiresInDays: 3651 }],
    ["an unknown field", { name: "x", rateLimitPerMin: 10 }],
    ["a body that is not an object", ["name"]],
  ])("create with %s: 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await post(body);
    expect([res.status, code(res)]).toEqual([400, "VALIDATION_ERROR"]);
    expect(res.body.error.details.length).toBeGreaterThan(0);
  });

  test("a 255-character name is accepted", async () => {
    const res = await post({ name: "n".repeat(255) });
    expect(res.status).toBe(200);
    expect(res.body.data.key.name).toHaveLength(255);
  });

  test.each([
    ["a 256-character name", { name: "n".repeat(256) }],
    ["a numeric name", { name: 5 }],
    ["duplicate permissions", { permissions: ["forms.view", "forms.view"] }],
    ["an unknown field", { expiresInDays: 5 }],
  ])("update with %s: 400 VALIDATION_ERROR", async (_label, body) => {
    const res = await api("PUT", `/api/v1/api-keys/${keyId}`, { token: owner.token, body });
    expect([res.status, code(res)]).toEqual([400, "VALIDATION_ERROR"]);
  });

  test("permanent must be true or false", async () => {
    for (const value of ["yes", "1", "TRUE", ""]) {
      const res = await api("DELETE", `/api/v1/api-keys/${keyId}?permanent=${value}`, { token: owner.token });
      expect([value, res.status, code(res)]).toEqual([value, 400, "VALIDATION_ERROR"]);
    }
    // Nothing happened to the key.
    expect((await api("GET", `/api/v1/api-keys/${keyId}`, { token: owner.token })).body.data.key.isRevoked).toBe(false);
  });

  test("an id of the wrong form is 404 NOT_FOUND", async () => {
    const site = await createSite(owner);
    for (const id of [site, "key_short", "sk_0000000000000000000000", `${keyId}x`, "inlet_sk_abc"]) {
      for (const [method, body] of [
        ["GET", undefined],
        ["PUT", { name: "x" }],
        ["DELETE", undefined],
      ] as const) {
        const res = await api(method, `/api/v1/api-keys/${encodeURIComponent(id)}`, {
          token: owner.token,
          ...(body ? { body } : {}),
        });
        expect([id, method, res.status, code(res)]).toEqual([id, method, 404, "NOT_FOUND"]);
      }
    }
  });

  test("an unsupported content type is 415", async () => {
    const res = await api("POST", "/api/v1/api-keys", {
      token: owner.token,
      rawBody: "name=x",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([res.status, code(res)]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
  });
});
