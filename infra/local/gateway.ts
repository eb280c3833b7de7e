import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from "aws-lambda";
import { ROUTES, type RouteDef } from "../../functions/routes";
import { localGrant, runAs } from "./grants";
import { isApiPath, isOpenApiDocument, serveOpenApiDocument, serveWeb } from "./web-static";

/** API Gateway's own payload limit for HTTP APIs. */
export const MAX_REQUEST_BYTES = 10 * 1024 * 1024;
/** API Gateway's integration timeout for HTTP APIs. */
const INTEGRATION_TIMEOUT_MS = 30_000;

const FUNCTIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "functions");

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<unknown>;

/**
 * A route served besides the route table, with its handler given directly: only the bench uses
 * one (its single-PutItem reference, test/bench/single-put.ts). Never part of ROUTES, so never
 * deployed.
 */
export interface ExtraRoute {
  def: RouteDef;
  handler: Handler;
}

interface CompiledRoute {
  def: RouteDef;
  method: string;
  pattern: RegExp;
  params: string[];
}

/** Turns `GET /api/v1/sites/{id}` into a matcher, as API Gateway matches route keys. */
function compile(def: RouteDef): CompiledRoute | undefined {
  if (def.route === "$default") return undefined;
  const [method, path] = def.route.split(" ") as [string, string];
  const params: string[] = [];
  const source = path
    .split("/")
    .map((segment) => {
      const match = /^\{(\w+)\}$/.exec(segment);
      if (!match?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      params.push(match[1]);
      return "([^/]+)";
    })
    .join("/");
  return { def, method, pattern: new RegExp(`^${source}$`), params };
}

const compiled = ROUTES.map((r) => compile(r)).filter((r): r is CompiledRoute => r !== undefined);
const fallback = ROUTES.find((r) => r.route === "$default") as RouteDef;

export function matchRoute(method: string, path: string): { def: RouteDef; pathParameters?: Record<string, string> } {
  for (const route of compiled) {
    if (route.method !== method) continue;
    const match = route.pattern.exec(path);
    if (!match) continue;
    const pathParameters: Record<string, string> = {};
    route.params.forEach((name, i) => {
      const raw = match[i + 1] ?? "";
      try {
        pathParameters[name] = decodeURIComponent(raw);
      } catch {
        pathParameters[name] = raw;
      }
    });
    return { def: route.def, pathParameters };
  }
  return { def: fallback };
}

const handlers = new Map<string, Promise<Handler>>();
function loadHandler(def: RouteDef): Promise<Handler> {
  let loaded = handlers.get(def.handler);
  if (!loaded) {
    const url = pathToFileURL(join(FUNCTIONS_DIR, `${def.handler}.ts`)).href;
    loaded = import(url).then((mod: { handler: Handler }) => mod.handler);
    handlers.set(def.handler, loaded);
  }
  return loaded;
}

/** Bodies API Gateway passes as text; everything else arrives base64-encoded. */
function isTextual(contentType: string | undefined): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "" || type === "application/json" || type.endsWith("+json") || type.startsWith("text/");
}

/**
 * The request target as a URL. An origin-form target is read as a path even when it starts with
 * `//`, which `new URL(target, base)` would read as a host name (and throw on `//%60x/`, or route
 * `//evil/api/v1/sites` to `/api/v1/sites`); a target that is no URL at all is read as `/`.
 */
export function requestUrl(target = "/"): URL {
  try {
    return new URL(target.startsWith("/") ? `http://localhost${target}` : target, "http://localhost");
  } catch {
    return new URL("http://localhost/");
  }
}

/** Builds an HTTP API payload format 2.0 event, as API Gateway does. */
export function toEvent(req: IncomingMessage, body: Buffer, def: RouteDef, pathParameters?: Record<string, string>) {
  const url = requestUrl(req.url);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === "cookie") continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(",") : value;
  }
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  const cookies = req.headers.cookie
    ?.split(";")
    .map((c) => c.trim())
    .filter(Boolean);
  const now = new Date();
  const sourceIp = (req.socket.remoteAddress ?? "127.0.0.1").replace(/^::ffff:/, "");
  // A compressed body is bytes whatever its type: API Gateway hands it to the function base64-encoded.
  const text = isTextual(headers["content-type"]) && !headers["content-encoding"];
  const event: APIGatewayProxyEventV2 = {
    version: "2.0",
    routeKey: def.route,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      domainName: headers.host ?? "localhost",
      domainPrefix: (headers.host ?? "localhost").split(".")[0] ?? "localhost",
      http: {
        method: req.method ?? "GET",
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: def.route,
      stage: "$default",
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    isBase64Encoded: body.length > 0 && !text,
  };
  if (cookies?.length) event.cookies = cookies;
  if (Object.keys(query).length) event.queryStringParameters = query;
  if (pathParameters && Object.keys(pathParameters).length) event.pathParameters = pathParameters;
  if (body.length) event.body = text ? body.toString("utf8") : body.toString("base64");
  return event;
}

function lambdaContext(def: RouteDef, requestId: string): Context {
  const deadline = Date.now() + (def.timeoutSeconds ?? 10) * 1000;
  const name = `inlet-${def.handler.replace(/\//g, "-")}`;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    memoryLimitInMB: String(def.memoryMb ?? 256),
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function send(res: ServerResponse, status: number, headers: Record<string, string | number | boolean>, body: Buffer | string) {
  res.writeHead(status, Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])));
  res.end(body);
}

const apiGatewayError = (res: ServerResponse, status: number, message: string) =>
  send(res, status, { "content-type": "application/json" }, JSON.stringify({ message }));

/** Writes a handler's result back as API Gateway does for payload format 2.0. */
function writeResult(res: ServerResponse, result: unknown) {
  if (result === null || typeof result !== "object" || !("statusCode" in result)) {
    const body = typeof result === "string" ? result : JSON.stringify(result ?? null);
    return send(res, 200, { "content-type": "application/json" }, body);
  }
  const r = result as APIGatewayProxyStructuredResultV2;
  const headers: Record<string, string | number | boolean> = { ...(r.headers ?? {}) };
  if (r.cookies?.length) res.setHeader("set-cookie", r.cookies);
  const body = r.body === undefined ? "" : r.isBase64Encoded ? Buffer.from(r.body, "base64") : r.body;
  send(res, r.statusCode ?? 200, headers, body);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export interface GatewayOptions {
  /** Routes matched before the route table (exact method and path, no parameters). */
  extraRoutes?: readonly ExtraRoute[];
  /** The dashboard's build (web/dist): every path outside /api/ is served from it, as CloudFront does. */
  webDir?: string;
}

export async function handle(req: IncomingMessage, res: ServerResponse, options: GatewayOptions = {}): Promise<void> {
  const { extraRoutes = [], webDir } = options;
  const url = requestUrl(req.url);
  if (isOpenApiDocument(url.pathname)) {
    req.resume();
    return serveOpenApiDocument(req, res);
  }
  if (webDir && !isApiPath(url.pathname)) {
    req.resume();
    return serveWeb(webDir, req, res, url.pathname);
  }
  const body = await readBody(req);
  if (!body) return apiGatewayError(res, 413, "Request Entity Too Large");
  const extra = extraRoutes.find((r) => r.def.route === `${req.method ?? "GET"} ${url.pathname}`);
  const { def, pathParameters } = extra
    ? { def: extra.def, pathParameters: undefined }
    : matchRoute(req.method ?? "GET", url.pathname);
  const event = toEvent(req, body, def, pathParameters);
  try {
    const handler = extra ? extra.handler : await loadHandler(def);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<"timeout">((r) => {
      timer = setTimeout(() => r("timeout"), INTEGRATION_TIMEOUT_MS);
    });
    const invocation = () => handler(event, lambdaContext(def, event.requestContext.requestId));
    const result = await Promise.race([runAs(def.handler, localGrant(def), invocation), timeout]);
    clearTimeout(timer);
    if (result === "timeout") return apiGatewayError(res, 503, "Service Unavailable");
    writeResult(res, result);
  } catch (error) {
    // A handler that throws is a Lambda error: API Gateway answers 500 with its own body.
    console.error(JSON.stringify({ level: "error", message: "handler threw", route: def.route, error: String(error) }));
    apiGatewayError(res, 500, "Internal Server Error");
  }
}

export async function startGateway(
  port: number,
  host = "127.0.0.1",
  options: GatewayOptions = {},
): Promise<{ server: Server; url: string; port: number }> {
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error) => {
      console.error(error);
      if (!res.headersSent) apiGatewayError(res, 500, "Internal Server Error");
    });
  });
  // Node closes an idle keep-alive connection after 5 s by default, on a timer. When this
  // process's loop runs late (it also runs the consumer and the bookkeeper), that timer can fire
  // after a client's next request has reached the socket but before it was read, and the client
  // sees "other side closed" with no answer. A client reuses a socket for the advertised timeout
  // less a margin (undici in Node 20: 2 s), so a longer timeout makes a request near the limit
  // rare: idle gaps of a minute are rare in a test run, gaps of five seconds are not.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  return { server, url: `http://localhost:${actual}`, port: actual };
}

/**
 * Stops the gateway once the requests in flight are answered. close() alone would also wait out
 * each of their connections' keep-alive timeout (65 s); each is closed as soon as it is idle.
 */
export function stopGateway(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    server.close(() => {
      clearInterval(idle);
      resolve();
    });
  });
}
