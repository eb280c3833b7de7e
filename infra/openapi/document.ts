import { toJSONSchema } from "zod";
import type { RouteRequirements } from "../../lib/auth/authorize";
import { ERROR_STATUS, type ErrorCode } from "../../lib/errors";
import { MAX_JSON_BODY_BYTES, PATH_ID, type RouteDescription } from "../../lib/http/chain";
import * as z from "../../lib/validation";
import { type DocumentedRouteKey, OPERATIONS, type OperationExtras } from "./operations";
import { SUCCESS_BODIES } from "./responses";
import { NAMED_SCHEMAS } from "./schemas";

/**
 * Builds the OpenAPI 3.1 document from the route table's entries and what each handler
 * validates (its RouteDescription, attached by lib/http/chain.ts), with the success bodies of
 * ./responses.ts and the extras of ./operations.ts. ./generate.ts hands the entries in, writes
 * docs/openapi.json and the dashboard's types. zod's JSON-schema conversion lives here only: a
 * build tool, which no Lambda imports (.dependency-cruiser.cjs, functions-import-no-infra).
 */

/** A route table entry as the document needs it (functions/routes.ts RouteDef), `$default` aside. */
export interface DocumentedRoute extends RouteRequirements {
  route: DocumentedRouteKey;
  handler: string;
}

export interface DocumentInput {
  version: string;
  routes: { entry: DocumentedRoute; description: RouteDescription | undefined }[];
}

type JsonSchema = Record<string, unknown>;

const isZod = (value: unknown): value is z.ZodMiniType =>
  typeof value === "object" && value !== null && "_zod" in (value as Record<string, unknown>);

/** zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect); refinements a schema cannot state are left out. */
export function jsonSchema(schema: z.ZodMiniType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...rest } = toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return rest;
}

/**
 * The answers' schemas, each once under `components.schemas`: the shared shapes by name, the
 * success bodies as `<operationId>Response`; a reused shape becomes a `$ref`, so a submission is
 * described once, not in every answer that holds one.
 */
class Components {
  private readonly registry = z.registry<{ id: string }>();

  constructor(named: Record<string, z.ZodMiniType>) {
    for (const [id, schema] of Object.entries(named)) this.registry.add(schema, { id });
  }

  /** A `$ref` to `schema`, registered under `id` unless it already has a name. */
  ref(schema: z.ZodMiniType, id: string) {
    if (!this.registry.has(schema)) this.registry.add(schema, { id });
    return { $ref: `#/components/schemas/${this.registry.get(schema)?.id}` };
  }

  /** Converts zod schemas in `content[*].schema` of an extras object into references. */
  refs(responses: Record<string, unknown>, prefix: string): Record<string, unknown> {
    return JSON.parse(
      JSON.stringify(responses, (key, value) =>
        isZod(value) ? this.ref(value, `${prefix}${key === "schema" ? "" : key}`) : value,
      ),
    ) as Record<string, unknown>;
  }

  schemas(): Record<string, JsonSchema> {
    const { schemas } = toJSONSchema(this.registry, {
      target: "draft-2020-12",
      io: "output",
      unrepresentable: "any",
      uri: (id) => `#/components/schemas/${id}`,
    }) as { schemas: Record<string, JsonSchema> };
    // The `$id` zod writes is the reference itself, a fragment: not a valid `$id` in JSON Schema 2020-12.
    for (const schema of Object.values(schemas)) {
      delete schema.$schema;
      delete schema.$id;
    }
    return schemas;
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const API_KEY_FAILURES: ErrorCode[] = ["API_KEY_EXPIRED", "API_KEY_REVOKED", "API_KEY_ORPHANED"];

export const pathParamNames = (route: string) => [...route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/**
 * Every error code a route can answer with: those its entry implies, in the order the chain
 * checks them (docs/api.md, "Credentials come first"), then its own (./operations.ts).
 */
export function errorCodes(entry: DocumentedRoute, description: RouteDescription | undefined): ErrorCode[] {
  const extras = OPERATIONS[entry.route];
  if (extras.plain) return [...(extras.errors ?? [])];
  const codes = new Set<ErrorCode>();
  const method = entry.route.split(" ")[0] ?? "";
  if (entry.auth !== "public") {
    // Any token may be sent to any authenticated route: a session (expired), an API key (its own
    // failures, its plan, its rate limit, counted whatever the answer) or the cookie (CSRF).
    codes.add("UNAUTHORIZED").add("SESSION_EXPIRED").add("SESSION_ENDED").add("SESSION_COOKIE_AMBIGUOUS");
    for (const code of API_KEY_FAILURES) codes.add(code);
    if (!SAFE_METHODS.has(method)) codes.add("CSRF_ORIGIN_MISMATCH");
    if (entry.auth === "session") codes.add("SESSION_REQUIRED");
    if (entry.platformAdmin) codes.add("PLATFORM_ADMIN_REQUIRED");
    if (entry.roles) codes.add("ROLE_REQUIRED");
    codes.add("PLAN_REQUIRED");
    if (entry.permission) codes.add("INSUFFICIENT_PERMISSION");
    codes.add("RATE_LIMITED");
  }
  if (pathParamNames(entry.route).length > 0) codes.add("NOT_FOUND");
  if (description?.body) {
    for (const code of ["PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "INVALID_JSON", "VALIDATION_ERROR"] as const)
      codes.add(code);
  }
  if (description?.query) codes.add("VALIDATION_ERROR");
  for (const code of extras.errors ?? []) codes.add(code);
  codes.add("INTERNAL_ERROR").add("SERVICE_UNAVAILABLE");
  return [...codes];
}

/**
 * The error answers of an operation, one per status: the shared envelope, its `code` narrowed
 * to that status's codes.
 */
function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, list]) => [
        String(status),
        {
          description: list.map((c) => `\`${c}\``).join(", "),
          ...(status === 429 || status === 503
            ? { headers: { "Retry-After": { schema: { type: "string" }, description: "Seconds to wait" } } }
            : {}),
          content: {
            "application/json": {
              schema: {
                allOf: [
                  { $ref: "#/components/schemas/ErrorEnvelope" },
                  { type: "object", properties: { error: { type: "object", properties: { code: { enum: list } } } } },
                ],
              },
            },
          },
        },
      ]),
  );
}

const SECURITY: Record<RouteRequirements["auth"], Record<string, string[]>[]> = {
  public: [],
  session: [{ sessionToken: [] }, { sessionCookie: [] }],
  bearer: [{ sessionToken: [] }, { apiKey: [] }, { sessionCookie: [] }],
};

/** `auth/create-site` → `createSite`: the handler file's name, unique per route. */
const operationId = (handler: string) =>
  (handler.split("/").at(-1) ?? handler).replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

function parameters(entry: DocumentedRoute, description: RouteDescription | undefined, extras: OperationExtras | undefined) {
  const path = pathParamNames(entry.route).map((name) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string", pattern: PATH_ID.source },
  }));
  const query: unknown[] = [];
  if (description?.query) {
    const schema = jsonSchema(description.query, "input");
    const required = new Set((schema.required as string[] | undefined) ?? []);
    for (const [name, property] of Object.entries((schema.properties as Record<string, JsonSchema> | undefined) ?? {})) {
      query.push({ name, in: "query", required: required.has(name), schema: property });
    }
  }
  return [...path, ...query, ...(extras?.parameters ?? [])];
}

function requestBody(description: RouteDescription | undefined, extras: OperationExtras | undefined) {
  if (extras?.requestBody) return extras.requestBody;
  if (!description?.body) return undefined;
  const schema = jsonSchema(description.body, "input");
  return {
    // An empty body is read as `{}`: it is required only when `{}` is not valid.
    required: ((schema.required as string[] | undefined) ?? []).length > 0,
    description: `JSON, at most ${MAX_JSON_BODY_BYTES} bytes`,
    content: { "application/json": { schema } },
  };
}

function operation(entry: DocumentedRoute, description: RouteDescription | undefined, components: Components) {
  const extras = OPERATIONS[entry.route];
  const success = SUCCESS_BODIES[entry.route];
  const id = operationId(entry.handler);
  const responses: Record<string, unknown> = {};
  if (success) {
    responses[String(description?.status ?? 200)] = {
      description: "Success",
      content: { "application/json": { schema: components.ref(success, `${id}Response`) } },
    };
  }
  Object.assign(
    responses,
    components.refs(extras.responses ?? {}, `${id}Response`),
    errorResponses(errorCodes(entry, description)),
  );
  if (extras.browserPages) {
    for (const response of Object.values(responses) as { content?: Record<string, unknown> }[]) {
      if (response.content) response.content["text/html"] = { schema: { type: "string" } };
    }
  }
  if (Object.keys(responses).every((status) => Number(status) >= 400)) {
    throw new Error(`${entry.route} has no success answer: add it to infra/openapi/responses.ts or operations.ts`);
  }
  const body = requestBody(description, extras);
  const params = parameters(entry, description, extras);
  return {
    operationId: id,
    summary: extras.summary,
    ...(extras.description ? { description: extras.description } : {}),
    tags: [entry.route.split("/")[3] ?? "api"],
    security: SECURITY[entry.auth],
    "x-auth": entry.auth,
    ...(entry.permission ? { "x-permission": entry.permission } : {}),
    ...(entry.roles ? { "x-roles": [...entry.roles] } : {}),
    ...(entry.plans ? { "x-plans": [...entry.plans] } : {}),
    ...(entry.platformAdmin ? { "x-platform-admin": true } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body ? { requestBody: body } : {}),
    responses,
  };
}

export function buildDocument(input: DocumentInput) {
  const paths: Record<string, Record<string, unknown>> = {};
  const components = new Components(NAMED_SCHEMAS);
  for (const { entry, description } of input.routes) {
    const [method, path] = entry.route.split(" ") as [string, string];
    paths[path] ??= {};
    (paths[path] as Record<string, unknown>)[method.toLowerCase()] = operation(entry, description, components);
  }
  return {
    openapi: "3.1.1",
    info: {
      title: "Inlet API",
      version: input.version,
      description:
        "Inlet's HTTP API, generated from the route table (functions/routes.ts) and the handlers' own zod schemas by `npm run openapi`. Conventions, limits and every error code: docs/api.md.",
    },
    servers: [{ url: "/", description: "The service's own origin (BASE_URL)" }],
    paths,
    components: {
      securitySchemes: {
        sessionToken: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "inlet_ss_…",
          description: "A session token from signup or login",
        },
        apiKey: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "inlet_sk_…",
          description: "An API key (agency and enterprise plans); rate limited per minute, see X-RateLimit-* headers",
        },
        sessionCookie: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-inlet_session",
          description:
            "The dashboard's HttpOnly session cookie (`inlet_session` over plain http), used when there is no Authorization header. A request other than GET, HEAD or OPTIONS signed in by it must carry `Origin` equal to the service's own, else 403 CSRF_ORIGIN_MISMATCH.",
        },
      },
      schemas: components.schemas(),
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildDocument>;
