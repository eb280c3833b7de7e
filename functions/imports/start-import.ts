import { httpHandler } from "../../lib/http/handler";
import { RawResponse, successResponse } from "../../lib/http/response";
import { importSubmissions } from "../../lib/imports";
import { IMPORT_LIMITS } from "../../lib/imports/limits";
import { readImportBody } from "../../lib/imports/request-body";
import { IMPORT_SOURCES } from "../../lib/imports/sources";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  file: z.string(),
  fileName: z.optional(z.string().check(z.maxLength(IMPORT_LIMITS.fileName))),
  source: z.optional(z.enum(IMPORT_SOURCES)),
  mapping: z.optional(z.record(z.string(), z.nullable(z.string()))),
  timeColumn: z.optional(z.nullable(z.string())),
  preview: z.optional(z.boolean()),
});

// A preview answers 200 with what it read; an import answers 202 with its job (docs/api.md, "Imports").
export const handler = httpHandler(
  route("POST /api/v1/forms/{formId}/import"),
  { body, status: 202, readBody: readImportBody },
  async ({ principal, params, sourceIp, body }) => {
    const answer = await importSubmissions(principal, sourceIp, params.formId, body);
    return "preview" in answer ? new RawResponse(successResponse(answer.preview, 200)) : answer;
  },
);
