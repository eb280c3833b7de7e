import { httpHandler } from "../../lib/http/handler";
import { moderateSubmission } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ isSpam: z.boolean() });

export const handler = httpHandler(route("PUT /api/v1/submissions/{submissionId}"), { body }, ({ principal, params, body }) =>
  moderateSubmission(principal, params.submissionId, body.isSpam),
);
