import { httpHandler } from "../../lib/http/handler";
import { addNote, noteBody } from "../../lib/notes";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ body: noteBody });

export const handler = httpHandler(
  route("POST /api/v1/submissions/{submissionId}/notes"),
  { body, status: 201 },
  ({ principal, params, body, sourceIp }) => addNote(principal, sourceIp, params.submissionId, body.body),
);
