import { createReadStream, existsSync, statSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, normalize, resolve, sep } from "node:path";
import { openApiDocument } from "../web-build";
import {
  DASHBOARD_HEADERS,
  HSTS_MAX_AGE_SECONDS,
  IMMUTABLE_CACHE_CONTROL,
  INDEX_CACHE_CONTROL,
  OPENAPI_DOCUMENT_HEADERS,
  OPENAPI_DOCUMENT_PATH,
} from "../web-headers";

/** The types Vite's build emits (and the favicon); anything else is sent as bytes. */
const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".json": "application/json",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
  ".map": "application/json",
};

/** Whether a request path is the API's (CloudFront's `/api/*` behaviour) rather than the dashboard's. */
export const isApiPath = (pathname: string) => pathname.startsWith("/api/");

/**
 * The dashboard's files as CloudFront serves them (infra/web-hosting.ts): a file that exists is
 * sent with the deployment's security headers; a path without a file extension is the app's
 * index.html (client-side routing, as the CloudFront Function rewrites it); any other path is
 * 404. Only GET and HEAD: the bucket origin allows nothing else.
 */
export function serveWeb(dir: string, req: IncomingMessage, res: ServerResponse, pathname: string): undefined {
  const send = (status: number, headers: Record<string, string>, file?: string): undefined => {
    res.writeHead(status, { ...DASHBOARD_HEADERS, ...headers });
    if (!file || req.method === "HEAD") res.end(file ? undefined : `${status === 405 ? "Method Not Allowed" : "Not Found"}\n`);
    else createReadStream(file).pipe(res);
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    return send(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" });
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return send(404, { "content-type": "text/plain; charset=utf-8" });
  }
  const root = resolve(dir);
  const wanted = resolve(root, `.${normalize(decoded)}`);
  const inside = wanted === root || wanted.startsWith(root + sep);
  const isFile = inside && existsSync(wanted) && statSync(wanted).isFile();
  const index = join(root, "index.html");
  const file = isFile ? wanted : extname(decoded) === "" ? index : undefined;
  if (!file || !existsSync(file)) return send(404, { "content-type": "text/plain; charset=utf-8" });
  const immutable = file.startsWith(join(root, "assets") + sep);
  send(
    200,
    {
      "content-type": TYPES[extname(file)] ?? "application/octet-stream",
      "cache-control": immutable ? IMMUTABLE_CACHE_CONTROL : INDEX_CACHE_CONTROL,
      "content-length": String(statSync(file).size),
    },
    file,
  );
}

/** Whether a request is for the API's OpenAPI document, which no function serves (infra/web-headers.ts). */
export const isOpenApiDocument = (pathname: string) => pathname === OPENAPI_DOCUMENT_PATH;

/**
 * The OpenAPI document as CloudFront serves it from the app bucket (infra/web-hosting.ts): the
 * generated docs/openapi.json with its headers, GET and HEAD only (CloudFront refuses other
 * methods on that behaviour with 403).
 */
export function serveOpenApiDocument(req: IncomingMessage, res: ServerResponse): undefined {
  const headers = {
    ...OPENAPI_DOCUMENT_HEADERS,
    "strict-transport-security": `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(403, { "content-type": "text/plain; charset=utf-8" });
    res.end("This distribution is not configured to allow the HTTP request method that was used for this request.\n");
    return;
  }
  const file = openApiDocument();
  res.writeHead(200, { ...headers, "content-length": String(statSync(file).size) });
  if (req.method === "HEAD") res.end();
  else createReadStream(file).pipe(res);
}
