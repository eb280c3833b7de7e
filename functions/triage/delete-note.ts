import { httpHandler } from "../../lib/http/handler";
import { removeNote } from "../../lib/notes";
import { route } from "../routes";

export const handler = httpHandler(
  route("DELETE /api/v1/submissions/{submissionId}/notes/{noteId}"),
  {},
  ({ principal, params, sourceIp }) => removeNote(principal, sourceIp, params.submissionId, params.noteId),
);
