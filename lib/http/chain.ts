import middy, { type MiddlewareObj, type Request } from "@middy/core";
import type { APIGatewayProxyEventV2, Context } from "aws-lambda";
import type { Principal } from "../auth/principal";
import { loadConfig } from "../config";
import { AppError } from "../errors";
import { describeError, log } from "../log";
import { instrument } from "../metrics/invocation";
import type * as z from "../validation";
import { clientIp } from "./client-ip";
import { errorResponse, type HttpResult, RawResponse, successResponse } from "./response";

/**
 * The middy chain every route shares (error mapping, JSON body, validation), without
 * authentication: `lib/http/handler.ts` adds it for authenticated routes, and public routes
 * (`lib/http/public-handler.ts`) never load it, so the intake and login functions do not carry
 * the session and API-key code at cold start (docs/performance.md, section 1).
 */

/** Management bodies are small JSON documents; API Gateway itself accepts up to 10 MB. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

export type Schema<T> = z.ZodMiniType<T, unknown>;

/**
 * The path parameters a route key declares, each a string: `"GET /sites/{id}/webhooks/{webhookId}"`
 * gives `{ id: string; webhookId: string }`. The chain guarantees each is present and non-empty.
 */
export type PathParams<K extends string> = K extends `${string}{${infer Name}}${infer Rest}`
  ? { [P in Name | keyof PathParams<Rest>]: string }
  : Record<never, string>;

/** A route table entry as the chain sees it: its key, from which the path parameters follow. */
export interface RouteKeyed {
  route: string;
}

export interface RequestContext<B, Q, P extends Principal | undefined, Params = Record<string, string>> {
  body: B;
  query: Q;
  params: Params;
  principal: P;
  event: APIGatewayProxyEventV2;
  requestId: string;
  sourceIp: string;
}

export interface Options<B, Q> {
  body?: Schema<B>;
  query?: Schema<Q>;
  /** Status of a successful response (default 200). */
  status?: number;
  /** Headers on every response of the route, errors included (the intake route's CORS). */
  headers?: Record<string, string>;
  /** Called with the answer's status, inside the invocation (the intake route counts its metrics). */
  answered?: (status: number) => void;
  /**
   * Reads the body in place of the JSON body reader and its 64 KB limit (the import's file, up to
   * 4 MB and maybe gzipped: lib/imports/request-body.ts); `body` still validates what it answers.
   */
  readBody?: (event: APIGatewayProxyEventV2) => unknown;
}

interface InletState {
  principal?: Principal;
  body?: unknown;
  /** Headers every answer carries, errors included (set by authentication: X-RateLimit-*). */
  responseHeaders?: Record<string, string>;
  /** Work started before the handler (API-key bookkeeping) that must end before the answer leaves. */
  pending?: Promise<void>;
  /** The route's path parameters, checked to be ids (pathIds). */
  params?: Record<string, string>;
}
export type InletEvent = APIGatewayProxyEventV2 & { inlet?: InletState };
export type InletRequest = Request<InletEvent, HttpResult, Error, Context>;
export type InletMiddleware = MiddlewareObj<InletEvent, HttpResult>;

export function header(event: APIGatewayProxyEventV2, name: string): string | undefined {
  // API Gateway lower-cases header names in payload format 2.0; the local gateway does too.
  return event.headers?.[name];
}

export function zodDetails(error: z.core.$ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({ path: issue.path.map(String).join("."), message: issue.message }));
}

export function parseWith<T>(schema: Schema<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    throw new AppError("VALIDATION_ERROR", "The request is not valid", zodDetails(result.error));
  }
  return result.data;
}

/**
 * The one place an answer is completed, success or error: the route's headers and those the
 * request's authentication asked for are added, and its pending bookkeeping is awaited (a Lambda
 * that returns with a write in flight may be frozen before the write is sent).
 */
async function finish(event: InletEvent, response: HttpResult, routeHeaders: Record<string, string> = {}): Promise<HttpResult> {
  Object.assign(response.headers, routeHeaders, event.inlet?.responseHeaders);
  await event.inlet?.pending;
  return response;
}

/** Maps every failure to the error envelope, once; only errors below 500 are described. */
const errorMapper = (routeHeaders: Record<string, string> = {}): InletMiddleware => ({
  onError: async (request: InletRequest) => {
    const error = request.error;
    const requestId = request.context?.awsRequestId ?? request.event.requestContext?.requestId;
    let appError: AppError;
    if (error instanceof AppError) {
      appError = error;
    } else if (isThrottle(error)) {
      log.warn("dynamodb throttled", { requestId, ...describeError(error) });
      appError = new AppError("SERVICE_UNAVAILABLE", "The service is busy; retry shortly", undefined, {
        "retry-after": "1",
      });
    } else {
      log.error("unhandled error", { requestId, route: request.event.routeKey, ...describeError(error) });
      appError = new AppError("INTERNAL_ERROR", "An internal error occurred");
    }
    request.response = await finish(request.event, errorResponse(appError, requestId), routeHeaders);
  },
});

const THROTTLE_ERRORS = new Set([
  "ProvisionedThroughputExceededException",
  "ThrottlingException",
  "RequestLimitExceeded",
  "TransactionConflictException",
]);
const isThrottle = (error: unknown) => THROTTLE_ERRORS.has((error as { name?: string } | null)?.name ?? "");

/**
 * What every id in a path looks like: Inlet's ids are type-prefixed base62 (lib/ids.ts) or
 * base62 digests (API keys, deliveries), at most a few dozen characters. Anything else cannot
 * name a stored item, so it is answered 404 here, once for every route, before any key is built
 * from it (a key attribute of several kilobytes is a DynamoDB ValidationException, a 500).
 */
export const PATH_ID = /^[0-9A-Za-z_-]{1,64}$/;

/**
 * The route's declared path parameters. API Gateway only invokes a route whose parameters all
 * matched a non-empty segment, and so does the local gateway; a missing one, or one that is not
 * an id (PATH_ID), is answered 404 as an unknown path would be, never passed on.
 */
function pathParams(event: APIGatewayProxyEventV2, names: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of names) {
    const value = event.pathParameters?.[name];
    if (!value || !PATH_ID.test(value)) throw new AppError("NOT_FOUND", "Not found");
    params[name] = value;
  }
  return params;
}

/** Checks the path's ids before the body is read (after authentication: an anonymous caller learns nothing). */
const pathIds = (names: readonly string[]): InletMiddleware => ({
  before: async (request: InletRequest) => {
    request.event.inlet ??= {};
    request.event.inlet.params = pathParams(request.event, names);
  },
});

function decodeBody(event: APIGatewayProxyEventV2): string {
  if (!event.body) return "";
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}

const jsonBody = (enabled: boolean, readBody: Options<unknown, unknown>["readBody"]): InletMiddleware => ({
  before: async (request: InletRequest) => {
    if (!enabled) return;
    const event = request.event;
    if (readBody) {
      event.inlet ??= {};
      event.inlet.body = readBody(event);
      return;
    }
    const text = decodeBody(event);
    if (Buffer.byteLength(text) > MAX_JSON_BODY_BYTES) {
      throw new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${MAX_JSON_BODY_BYTES} bytes`);
    }
    event.inlet ??= {};
    if (text.trim() === "") {
      event.inlet.body = {};
      return;
    }
    const type = (header(event, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
    if (type !== "" && type !== "application/json" && !type.endsWith("+json")) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", "Send the body as application/json");
    }
    try {
      event.inlet.body = JSON.parse(text);
    } catch {
      throw new AppError("INVALID_JSON", "The body is not valid JSON");
    }
  },
});

/**
 * Error mapping, then `authentication` when given, JSON body parsing, zod validation, then `fn`,
 * whose return value becomes `{success: true, data}` (or is sent as it is when a RawResponse).
 */
export function buildHandler<B, Q, P extends Principal | undefined, Params>(
  route: RouteKeyed,
  options: Options<B, Q>,
  authentication: InletMiddleware | undefined,
  fn: (ctx: RequestContext<B, Q, P, Params>) => Promise<unknown>,
) {
  const paramNames = [...route.route.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const chain = middy<InletEvent, HttpResult>().use(errorMapper(options.headers));
  // Credentials are checked before the body is read: an anonymous caller learns nothing about a
  // route's body rules.
  if (authentication) chain.use(authentication);
  const handler = chain
    .use(pathIds(paramNames))
    .use(jsonBody(options.body !== undefined, options.readBody))
    .handler(async (event, context) => {
      const body = options.body ? parseWith(options.body, event.inlet?.body) : (undefined as B);
      const rawQuery = event.queryStringParameters ?? {};
      const query = options.query ? parseWith(options.query, rawQuery) : (rawQuery as Q);
      const result = await fn({
        body,
        query,
        params: (event.inlet?.params ?? {}) as Params,
        principal: event.inlet?.principal as P,
        event,
        requestId: context.awsRequestId,
        sourceIp: clientIp(event, loadConfig().EDGE_SECRET),
      });
      const response = result instanceof RawResponse ? result.result : successResponse(result, options.status);
      return finish(event, response, options.headers);
    });
  return describeRoute(withRequestLine(handler, route, options.answered), route, options);
}

/**
 * Runs each invocation under lib/metrics/invocation.ts: its business metrics are written as EMF
 * and one "request done" line when it ends. The chain maps every error to an answer, so a throw
 * here is Lambda's own failure, which API Gateway answers 500.
 */
function withRequestLine(
  handler: (event: InletEvent, context: Context) => Promise<HttpResult>,
  route: RouteKeyed,
  answered: ((status: number) => void) | undefined,
) {
  return (event: InletEvent, context: Context): Promise<HttpResult> =>
    instrument(
      { requestId: context.awsRequestId, functionName: context.functionName },
      () => handler(event, context),
      (outcome) => {
        const status = outcome.ok ? outcome.value.statusCode : 500;
        answered?.(status);
        return { route: route.route, status };
      },
    );
}

/** What a handler validates, as `httpHandler`/`publicHandler` were given it (see `describeRoute`). */
export interface RouteDescription {
  route: string;
  body?: Schema<unknown>;
  query?: Schema<unknown>;
  status?: number;
}

/** The non-enumerable property of a built handler that holds its RouteDescription. */
export const ROUTE_DESCRIPTION = "inletRoute";

/**
 * Attaches the route's key and the schemas the handler validates with to the Lambda handler, so
 * the OpenAPI generator (infra/openapi/) reads them from the handler modules instead of a copy.
 * One property assignment at cold start; nothing here converts a schema.
 */
function describeRoute<H extends object>(handler: H, route: RouteKeyed, options: Options<unknown, unknown>): H {
  const description: RouteDescription = { route: route.route, body: options.body, query: options.query, status: options.status };
  return Object.defineProperty(handler, ROUTE_DESCRIPTION, { value: description, enumerable: false });
}
