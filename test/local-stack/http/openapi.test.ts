import { readFileSync } from "node:fs";
import createClient from "openapi-fetch";
import type { paths } from "../../../web/src/api/schema";
import { api, baseUrl, createSite, signupOwner, uniqueEmail } from "../../support/api";
import { TEST_PASSWORD } from "../../support/constants";
import { checkAgainstDocument, findOperation } from "../../support/openapi";

const committed = JSON.parse(readFileSync("docs/openapi.json", "utf8"));

describe("GET /api/v1/openapi.json", () => {
  test("answers the committed document, public and cacheable", async () => {
    const res = await api("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=300");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.body).toEqual(committed);
  });

  test("is a static file, as CloudFront serves it from the dashboard's bucket: HEAD answers its headers, another method is refused", async () => {
    const head = await fetch(`${baseUrl()}/api/v1/openapi.json`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(readFileSync("docs/openapi.json").length);
    expect(await head.text()).toBe("");
    const post = await fetch(`${baseUrl()}/api/v1/openapi.json`, { method: "POST", body: "{}" });
    expect(post.status).toBe(403);
    await post.text();
    // No function answers it: it is not an operation of the document, nor a route of the table.
    expect(committed.paths["/api/v1/openapi.json"]).toBeUndefined();
  });

  test("needs no credentials: a bad token changes nothing", async () => {
    const res = await api("GET", "/api/v1/openapi.json", { token: "inlet_ss_nonsense" });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1\./);
  });
});

describe("the answers' check against the document (test/support/openapi.ts)", () => {
  // Real answers, then the drift a handler could make: the check must refuse each.
  let token: string;
  let siteId: string;
  beforeAll(async () => {
    const owner = await signupOwner("openapi");
    token = owner.token;
    siteId = await createSite(owner, "Checked site");
  });

  const check = (method: string, path: string, status: number, text: string) => () =>
    checkAgainstDocument({ method, path, status, contentType: "application/json; charset=utf-8", text });

  test("accepts the real answer and refuses a field the document does not have", async () => {
    const res = await api("GET", `/api/v1/sites/${siteId}`, { token });
    expect(res.status).toBe(200);
    expect(check("GET", `/api/v1/sites/${siteId}`, 200, res.text)).not.toThrow();
    const drifted = { ...res.body, data: { site: { ...res.body.data.site, secret: "x" } } };
    expect(check("GET", `/api/v1/sites/${siteId}`, 200, JSON.stringify(drifted))).toThrow(/does not match/);
    const { name: _, ...missing } = res.body.data.site;
    expect(check("GET", `/api/v1/sites/${siteId}`, 200, JSON.stringify({ success: true, data: { site: missing } }))).toThrow(
      /does not match/,
    );
  });

  test("refuses a status the operation does not document", async () => {
    const res = await api("GET", `/api/v1/sites/${siteId}`, { token });
    expect(check("GET", `/api/v1/sites/${siteId}`, 201, res.text)).toThrow(/not documented/);
  });

  test("refuses an error code the operation does not list under that status", async () => {
    const res = await api("DELETE", "/api/v1/sites/site_unknown0000000000000000", { token });
    expect(res.status).toBe(404);
    const other = JSON.stringify({ ...res.body, error: { ...res.body.error, code: "EMAIL_TAKEN" } });
    expect(check("DELETE", "/api/v1/sites/site_unknown0000000000000000", 404, other)).toThrow(/does not match/);
  });

  test("matches a request to its operation as the gateway does, $default aside", () => {
    expect(findOperation("GET", `/api/v1/sites/${siteId}/webhooks?archived=true`)?.operation.operationId).toBe("listWebhooks");
    expect(findOperation("POST", "/api/v1/submissions/bulk-delete")?.operation.operationId).toBe("bulkDeleteSubmissions");
    expect(findOperation("PATCH", `/api/v1/sites/${siteId}`)).toBeUndefined();
    expect(check("PATCH", `/api/v1/sites/${siteId}`, 405, "{}")).toThrow(/no operation/);
  });
});

describe("the dashboard's typed client (openapi-fetch over web/src/api/schema.d.ts)", () => {
  test("signs up, creates a site and reads it, typed from the document", async () => {
    const client = createClient<paths>({ baseUrl: baseUrl() });
    const signup = await client.POST("/api/v1/auth/signup", {
      body: { email: uniqueEmail("client"), password: TEST_PASSWORD, name: "Typed", organizationName: "Typed Org" },
    });
    expect(signup.response.status).toBe(201);
    const token: string | undefined = signup.data?.data.token;
    const headers = { authorization: `Bearer ${token}` };
    const created = await client.POST("/api/v1/sites", { headers, body: { name: "Typed site", domain: "example.com" } });
    const siteId: string | undefined = created.data?.data.site.id;
    const read = await client.GET("/api/v1/sites/{id}", { headers, params: { path: { id: siteId ?? "" } } });
    expect(read.data?.data.site.domain).toBe("example.com");
    const missing = await client.GET("/api/v1/sites/{id}", { headers, params: { path: { id: "site_missing" } } });
    expect(missing.error?.error.code).toBe("NOT_FOUND");
  });
});
