import { httpHandler } from "../../lib/http/handler";
import { readNotes } from "../../lib/notes";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/submissions/{submissionId}/notes"), {}, ({ principal, params }) =>
  readNotes(principal, params.submissionId),
);
