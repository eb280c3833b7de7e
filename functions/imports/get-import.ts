import { httpHandler } from "../../lib/http/handler";
import { readImport } from "../../lib/imports";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/forms/{formId}/imports/{importId}"), {}, ({ principal, params }) =>
  readImport(principal, params.formId, params.importId),
);
