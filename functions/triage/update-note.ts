import { httpHandler } from "../../lib/http/handler";
import { editNote, noteBody } from "../../lib/notes";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ body: noteBody, updatedAt: z.optional(z.iso.datetime()) });

export const handler = httpHandler(
  route("PUT /api/v1/submissions/{submissionId}/notes/{noteId}"),
  { body },
  ({ principal, params, body, sourceIp }) =>
    editNote(principal, sourceIp, params.submissionId, params.noteId, body.body, body.updatedAt),
);
