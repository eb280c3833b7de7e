import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { resolveApiKey } from "../../../lib/auth/api-key-auth";
import { db, tableName } from "../../../lib/aws/dynamodb";
import { keys } from "../../../lib/store/keys";
import { api, platformAdminToken, setPlan } from "../../support/api";
import { agencyOwner, code, createKey, sameWindow } from "../../support/api-keys";

describe("authenticating with an API key", () => {
  test("a revoked key is 401 API_KEY_REVOKED at once", async () => {
    const owner = await agencyOwner("revoked");
    const key = await createKey(owner);
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    await api("DELETE", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(res.status).toBe(401);
    expect(code(res)).toBe("API_KEY_REVOKED");
  });

  test("an expired key is 401 API_KEY_EXPIRED", async () => {
    const owner = await agencyOwner("expired");
    const key = await createKey(owner, { name: "soon", expiresInDays: 1 });
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    // Time passes: the expiry is moved into the past in the table itself.
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.apiKey(key.id),
        UpdateExpression: "SET expiresAt = :past",
        ExpressionAttributeValues: { ":past": new Date(Date.now() - 1000).toISOString() },
      }),
    );
    const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(res.status).toBe(401);
    expect(code(res)).toBe("API_KEY_EXPIRED");
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  test("a mistyped key (bad checksum) is 401 UNAUTHORIZED", async () => {
    const owner = await agencyOwner("typo");
    const key = await createKey(owner);
    const last = key.secretKey.slice(-1);
    const typo = key.secretKey.slice(0, -1) + (last === "a" ? "b" : "a");
    const res = await api("GET", "/api/v1/sites", { token: typo });
    expect([res.status, code(res)]).toEqual([401, "UNAUTHORIZED"]);
  });

  test("every API-key response carries the X-RateLimit headers", async () => {
    const owner = await agencyOwner("headers");
    const key = await createKey(owner, { name: "h", permissions: ["forms.view"] });
    await sameWindow();
    const ok = await api("GET", "/api/v1/team", { token: (await createKey(owner)).secretKey });
    expect(ok.headers.get("x-ratelimit-limit")).toBe("300");
    const first = await api("GET", "/api/v1/api-keys", { token: key.secretKey });
    const second = await api("GET", "/api/v1/sites", { token: key.secretKey });
    const resetAt = Math.floor(Date.now() / 60_000) * 60 + 60;
    expect([first.status, second.status]).toEqual([403, 403]);
    expect(first.headers.get("x-ratelimit-limit")).toBe("300");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("299");
    expect(second.headers.get("x-ratelimit-remaining")).toBe("298");
    expect(second.headers.get("x-ratelimit-reset")).toBe(String(resetAt));
    expect(ok.headers.get("x-ratelimit-remaining")).toBe("299");
    // A session's responses do not carry them.
    expect((await api("GET", "/api/v1/sites", { token: owner.token })).headers.get("x-ratelimit-limit")).toBeNull();
  });

  test("a lower per-key limit applies, never above the plan's", async () => {
    const owner = await agencyOwner("custom-limit");
    const key = await createKey(owner);
    const above = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: 301 } });
    expect([above.status, code(above)]).toEqual([400, "VALIDATION_ERROR"]);
    expect(above.body.error.details).toEqual([expect.objectContaining({ path: "rateLimitPerMin" })]);
    for (const bad of [0, -1, 2.5, "10"]) {
      const res = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: bad } });
      expect([bad, res.status, code(res)]).toEqual([bad, 400, "VALIDATION_ERROR"]);
    }
    const lowered = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: 2 } });
    expect(lowered.body.data.key.rateLimitPerMin).toBe(2);
    await sameWindow();
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await api("GET", "/api/v1/team", { token: key.secretKey }));
    expect(results.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(results[0]?.headers.get("x-ratelimit-limit")).toBe("2");
    expect(code(results[2] as { body: { error?: { code?: string } } })).toBe("RATE_LIMITED");
    expect(Number(results[2]?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // null follows the plan again.
    const reset = await api("PUT", `/api/v1/api-keys/${key.id}`, { token: owner.token, body: { rateLimitPerMin: null } });
    expect(reset.body.data.key.rateLimitPerMin).toBe(300);
  });

  test("lastUsedAt is recorded when the key is used", async () => {
    const owner = await agencyOwner("last-used");
    const key = await createKey(owner);
    const before = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(before.body.data.key.lastUsedAt).toBeNull();
    await sameWindow();
    const start = Date.now();
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const after = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    const lastUsedAt = Date.parse(after.body.data.key.lastUsedAt);
    expect(lastUsedAt).toBeGreaterThanOrEqual(start - 1000);
    expect(lastUsedAt).toBeLessThanOrEqual(Date.now());
    // Later requests of the same minute do not write it again.
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const again = await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token });
    expect(again.body.data.key.lastUsedAt).toBe(after.body.data.key.lastUsedAt);
  });

  test("a plan change reaches existing keys: a downgrade is 403 PLAN_REQUIRED, an upgrade raises the limit", async () => {
    const owner = await agencyOwner("downgrade");
    const key = await createKey(owner);
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).headers.get("x-ratelimit-limit")).toBe("300");

    await setPlan(owner.orgId, "enterprise");
    const upgraded = await api("GET", "/api/v1/sites", { token: key.secretKey });
    expect(upgraded.status).toBe(200);
    expect(upgraded.headers.get("x-ratelimit-limit")).toBe("600");
    expect((await api("GET", `/api/v1/api-keys/${key.id}`, { token: owner.token })).body.data.key.rateLimitPerMin).toBe(600);

    for (const plan of ["pro", "free"] as const) {
      await setPlan(owner.orgId, plan);
      const res = await api("GET", "/api/v1/sites", { token: key.secretKey });
      expect([plan, res.status, code(res)]).toEqual([plan, 403, "PLAN_REQUIRED"]);
    }
    await setPlan(owner.orgId, "agency");
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
  });

  test("a plan change of another organization leaves these keys alone", async () => {
    const owner = await agencyOwner("untouched");
    const other = await agencyOwner("changed");
    const key = await createKey(owner);
    await createKey(other);
    await setPlan(other.orgId, "free");
    expect((await api("GET", "/api/v1/sites", { token: key.secretKey })).status).toBe(200);
    const admin = await platformAdminToken();
    const missing = await api("PUT", "/api/v1/admin/organizations/org_0000000000000000000000", {
      token: admin,
      body: { plan: "pro" },
    });
    expect(missing.status).toBe(404);
  });
});

describe("the per-key rate limit", () => {
  /** 300 requests in batches of 50, then the 301st, all with the window's end as it was at the start. */
  async function burst(secretKey: string) {
    const windowEnd = Math.floor(Date.now() / 60_000) * 60 + 60;
    const started = Date.now();
    const responses = [];
    for (let batch = 0; batch < 6; batch++) {
      const calls = Array.from({ length: 50 }, () => api("GET", "/api/v1/sites", { token: secretKey }));
      responses.push(...(await Promise.all(calls)));
    }
    const over = await api("GET", "/api/v1/sites", { token: secretKey });
    return { windowEnd, started, responses, over, inOneWindow: Date.now() < windowEnd * 1000 };
  }

  test("with a 300/min key, requests 1-300 of a window succeed, 301 is 429, and the next window is clean", async () => {
    const owner = await agencyOwner("rate-limit");
    // The burst takes a few seconds over loopback: start it with 20 s of the window left, and in
    // the unlikely case a loaded machine still crosses the window's end, run it again with a
    // fresh key (the check of the boundary must not depend on the clock being kind).
    let run: Awaited<ReturnType<typeof burst>> | undefined;
    let secretKey = "";
    for (let attempt = 0; attempt < 2 && !run?.inOneWindow; attempt++) {
      secretKey = (await createKey(owner, { name: `burst ${attempt}`, permissions: ["sites.view"] })).secretKey;
      await sameWindow(20);
      run = await burst(secretKey);
    }
    if (!run?.inOneWindow) throw new Error("The burst never fitted in one window");
    const { windowEnd, started, responses, over } = run;

    expect(responses.map((r) => r.status)).toEqual(Array(300).fill(200));
    const remaining = responses.map((r) => Number(r.headers.get("x-ratelimit-remaining"))).sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => i));
    for (const r of responses) {
      expect(r.headers.get("x-ratelimit-limit")).toBe("300");
      expect(r.headers.get("x-ratelimit-reset")).toBe(String(windowEnd));
    }

    expect(over.status).toBe(429);
    expect(code(over)).toBe("RATE_LIMITED");
    const retryAfter = Number(over.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(windowEnd - Math.floor(started / 1000));
    expect(over.headers.get("x-ratelimit-limit")).toBe("300");
    expect(over.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(over.headers.get("x-ratelimit-reset")).toBe(String(windowEnd));

    // The next window, reached through lib/ with the clock where Retry-After points (waiting for
    // it in real time would cost up to a minute): the count starts again.
    const next = await resolveApiKey(secretKey, windowEnd * 1000);
    expect(next.responseHeaders).toEqual({
      "x-ratelimit-limit": "300",
      "x-ratelimit-remaining": "299",
      "x-ratelimit-reset": String(windowEnd + 60),
    });
  }, 120_000);
});
