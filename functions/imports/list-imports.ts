import { httpHandler } from "../../lib/http/handler";
import { listImports } from "../../lib/imports";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/forms/{formId}/imports"), {}, ({ principal, params }) =>
  listImports(principal, params.formId),
);
