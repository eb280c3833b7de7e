import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { OPENAPI_DOCUMENT_PATH } from "../../infra/web-headers";

/**
 * The one check that an answer the service gave matches the committed OpenAPI document
 * (docs/openapi.json): its status is documented for the operation, its JSON body matches the
 * schema of that status, and an error's `code` is one the operation lists there. test/support's
 * request helpers run it on every answer, so a handler that drifts from the document fails the
 * HTTP test that received the drifted answer.
 */

interface Operation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

export const openApiDocument = JSON.parse(readFileSync(join(process.cwd(), "docs/openapi.json"), "utf8")) as OpenApi;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
// One resource holding every component, so each operation's `$ref`s resolve against it.
ajv.addSchema({ $id: "inlet", components: openApiDocument.components }, "inlet");
const withBase = (schema: unknown) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"inlet#/components/')) as object;

/** The path templates of the document, each as a pattern over a request path (ids are one segment). */
const TEMPLATES = Object.keys(openApiDocument.paths).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\./g, "\\.").replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

/** The operation a request reaches, as the gateway matches it; undefined for `$default` (unmatched). */
export function findOperation(method: string, path: string): { template: string; operation: Operation } | undefined {
  const pathname = new URL(path, "http://x").pathname;
  // A literal segment outranks a parameter, as API Gateway's matching does.
  const matches = TEMPLATES.filter((t) => t.pattern.test(pathname) && openApiDocument.paths[t.template]?.[method.toLowerCase()]);
  matches.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  const found = matches[0];
  if (!found) return undefined;
  return { template: found.template, operation: openApiDocument.paths[found.template]?.[method.toLowerCase()] as Operation };
}

const compiled = new Map<string, ValidateFunction>();
function validator(key: string, schema: unknown): ValidateFunction {
  let fn = compiled.get(key);
  if (!fn) {
    fn = ajv.compile(withBase(schema));
    compiled.set(key, fn);
  }
  return fn;
}

/** The unmatched route (`$default`): always 404 NOT_FOUND in the shared envelope. */
const DEFAULT_ROUTE = { $ref: "#/components/schemas/ErrorEnvelope" };

export interface ReceivedAnswer {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  text: string;
}

/** Throws, naming the operation and what differs, when `answer` is not what the document says. */
export function checkAgainstDocument(answer: ReceivedAnswer): void {
  // The document itself is a static file under /api/, not an operation of the API (infra/web-headers.ts).
  if (answer.path.split("?")[0] === OPENAPI_DOCUMENT_PATH) return;
  const where = `${answer.method} ${answer.path} → ${answer.status}`;
  // API Gateway's own refusals (413 over 10 MB, 503 past 30 s) never reach a function.
  const found = findOperation(answer.method, answer.path);
  let schema: unknown;
  let key: string;
  if (!found) {
    if (answer.status !== 404) throw new Error(`${where}: no operation in docs/openapi.json, and not the $default 404`);
    schema = DEFAULT_ROUTE;
    key = "$default";
  } else {
    const response = found.operation.responses[String(answer.status)];
    if (!response) {
      throw new Error(
        `${where}: status ${answer.status} is not documented for ${found.operation.operationId} (documented: ${Object.keys(found.operation.responses).join(", ")}); run npm run openapi after changing infra/openapi/`,
      );
    }
    const mediaType = (answer.contentType ?? "").split(";")[0]?.trim() ?? "";
    if (!response.content) {
      if (answer.text !== "") throw new Error(`${where}: the document says no body, but one came (${mediaType})`);
      return;
    }
    const media = response.content[mediaType];
    if (!media) {
      throw new Error(
        `${where}: content type ${mediaType || "(none)"} is not documented (${Object.keys(response.content).join(", ")})`,
      );
    }
    if (mediaType !== "application/json") return;
    schema = media.schema;
    key = `${found.template} ${answer.method} ${answer.status}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`${where}: the body is not JSON: ${answer.text.slice(0, 200)}`);
  }
  const validate = validator(key, schema);
  if (!validate(body)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`);
    throw new Error(`${where} does not match docs/openapi.json:\n  ${problems.join("\n  ")}\nbody: ${answer.text.slice(0, 600)}`);
  }
}
