import { readFileSync } from "node:fs";
import { ROUTES } from "../../../functions/routes";
import { CLIENT_TYPES_FILE, DOCUMENT_FILE, generatedFiles } from "../../../infra/openapi/generate";
import { OPERATIONS } from "../../../infra/openapi/operations";
import { ERROR_STATUS, type ErrorCode } from "../../../lib/errors";
import { ROUTE_DESCRIPTION, type RouteDescription } from "../../../lib/http/chain";

/**
 * The OpenAPI document (docs/openapi.json) against the code it is generated from: the committed
 * files are what `npm run openapi` writes now, and every route of the table is in it with what
 * its entry and its handler say. test/support/openapi.ts checks the answers against it.
 */

interface Operation {
  security: Record<string, string[]>[];
  "x-auth": string;
  "x-permission"?: string;
  "x-roles"?: string[];
  "x-plans"?: string[];
  "x-platform-admin"?: boolean;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { content?: Record<string, { schema: { allOf?: [unknown, { properties: any }] } }> }>;
}

const document = JSON.parse(readFileSync(DOCUMENT_FILE, "utf8")) as {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
};
const routes = ROUTES.filter((r) => r.route !== "$default");

function operationOf(key: string): Operation {
  const [method, path] = key.split(" ") as [string, string];
  const op = document.paths[path]?.[method.toLowerCase()];
  if (!op) throw new Error(`${key} is not in docs/openapi.json: run npm run openapi`);
  return op;
}

/** The error codes an operation lists, by status. */
function listedCodes(op: Operation): Map<number, string[]> {
  const codes = new Map<number, string[]>();
  for (const [status, response] of Object.entries(op.responses)) {
    const schema = response.content?.["application/json"]?.schema;
    const list = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum as string[] | undefined;
    if (list) codes.set(Number(status), list);
  }
  return codes;
}
const lists = (op: Operation, code: ErrorCode) => listedCodes(op).get(ERROR_STATUS[code])?.includes(code) ?? false;

async function descriptionOf(handler: string): Promise<RouteDescription | undefined> {
  const module = (await import(`../../../functions/${handler}`)) as { handler: Record<string, RouteDescription | undefined> };
  return module.handler[ROUTE_DESCRIPTION];
}

describe("the committed OpenAPI document and client types", () => {
  let fresh: { document: string; clientTypes: string };
  beforeAll(async () => {
    fresh = await generatedFiles();
  }, 60_000);

  test("docs/openapi.json is what npm run openapi generates", () => {
    const committed = readFileSync(DOCUMENT_FILE, "utf8");
    if (committed !== fresh.document) throw new Error("docs/openapi.json is stale: run npm run openapi and commit it");
  });

  test("web/src/api/schema.d.ts is what npm run openapi generates", () => {
    const committed = readFileSync(CLIENT_TYPES_FILE, "utf8");
    if (committed !== fresh.clientTypes) throw new Error("web/src/api/schema.d.ts is stale: run npm run openapi and commit it");
  });

  test("is OpenAPI 3.1 and has exactly the table's routes, $default aside", () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => r.route).sort());
  });
});

describe.each(routes.map((r) => [r.route, r] as const))("%s in the document", (key, entry) => {
  const op = operationOf(key);
  const def = entry as (typeof ROUTES)[number] & {
    permission?: string;
    roles?: string[];
    plans?: string[];
    platformAdmin?: boolean;
  };

  test("auth, security and the requirements of its entry", () => {
    expect(op["x-auth"]).toBe(def.auth);
    const schemes = op.security.flatMap((s) => Object.keys(s)).sort();
    if (def.auth === "public") expect(schemes).toEqual([]);
    if (def.auth === "session") expect(schemes).toEqual(["sessionCookie", "sessionToken"]);
    if (def.auth === "bearer") expect(schemes).toEqual(["apiKey", "sessionCookie", "sessionToken"]);
    expect(op["x-permission"]).toBe(def.permission);
    expect(op["x-roles"]).toEqual(def.roles ? [...def.roles] : undefined);
    expect(op["x-plans"]).toEqual(def.plans ? [...def.plans] : undefined);
    expect(op["x-platform-admin"]).toBe(def.platformAdmin);
  });

  test("the error codes its entry implies, each under its own status", () => {
    const expected: ErrorCode[] = [];
    if (def.auth !== "public")
      expected.push("UNAUTHORIZED", "SESSION_EXPIRED", "API_KEY_REVOKED", "RATE_LIMITED", "PLAN_REQUIRED");
    if (def.auth !== "public" && !key.startsWith("GET ")) expected.push("CSRF_ORIGIN_MISMATCH");
    if (def.auth === "session") expected.push("SESSION_REQUIRED");
    if (def.roles) expected.push("ROLE_REQUIRED");
    if (def.platformAdmin) expected.push("PLATFORM_ADMIN_REQUIRED");
    if (def.permission) expected.push("INSUFFICIENT_PERMISSION");
    if (key.includes("{") && !OPERATIONS[key]?.plain) expected.push("NOT_FOUND");
    expect(expected.filter((code) => !lists(op, code))).toEqual([]);
    // Route-specific codes declared in infra/openapi/operations.ts, and nothing under a wrong status.
    expect((OPERATIONS[key]?.errors ?? []).filter((code) => !lists(op, code))).toEqual([]);
    for (const [status, codes] of listedCodes(op)) {
      expect(codes.filter((c) => ERROR_STATUS[c as ErrorCode] !== status)).toEqual([]);
    }
  });

  test("its path parameters, the query and the body its handler validates", async () => {
    const description = await descriptionOf(entry.handler);
    const params = op.parameters ?? [];
    const pathNames = [...key.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    expect(params.filter((p) => p.in === "path").map((p) => [p.name, p.required])).toEqual(pathNames.map((n) => [n, true]));
    if (description) {
      expect(description.route).toBe(key);
      const own = (OPERATIONS[key]?.parameters ?? []) as { name: string; in: string }[];
      const queryKeys = [
        ...(description.query ? Object.keys((description.query as unknown as { shape: object }).shape) : []),
        ...own.filter((p) => p.in === "query").map((p) => p.name),
      ].sort();
      expect(
        params
          .filter((p) => p.in === "query")
          .map((p) => p.name)
          .sort(),
      ).toEqual(queryKeys);
      expect(op.requestBody !== undefined).toBe(description.body !== undefined || OPERATIONS[key]?.requestBody !== undefined);
      if (description.body) {
        expect(Object.keys(op.requestBody?.content ?? {})).toEqual(["application/json"]);
        for (const code of ["VALIDATION_ERROR", "INVALID_JSON", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"] as const) {
          expect([code, lists(op, code)]).toEqual([code, true]);
        }
      }
      expect(Object.keys(op.responses)).toContain(String(description.status ?? 200));
    } else {
      // A plain handler (the preflight, this document) or one that reads its own input (intake).
      expect(OPERATIONS[key]?.plain ?? OPERATIONS[key]?.requestBody).toBeDefined();
    }
  });
});

test("intake documents its three body types, its secret and its redirect", () => {
  const op = operationOf("POST /api/v1/incoming/{webhookId}");
  expect(Object.keys(op.requestBody?.content ?? {}).sort()).toEqual([
    "application/json",
    "application/x-www-form-urlencoded",
    "multipart/form-data",
  ]);
  expect(op.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(["key", "X-Webhook-Key", "Idempotency-Key"]));
  expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(["200", "303", "401", "410", "413", "415", "422"]));
});

test("the export documents its CSV and JSON files and its 303", () => {
  const op = operationOf("GET /api/v1/forms/{formId}/submissions/export");
  expect(Object.keys(op.responses["200"]?.content ?? {}).sort()).toEqual(["application/json", "text/csv"]);
  expect(op.responses["303"]).toBeDefined();
});
