import { httpHandler } from "../../lib/http/handler";
import { patchSubmission, statusSchema, tagIdsSchema, userIdSchema } from "../../lib/triage";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  status: z.optional(statusSchema),
  ownerId: z.optional(z.nullable(userIdSchema)),
  tags: z.optional(tagIdsSchema),
  updatedAt: z.optional(z.iso.datetime()),
});

export const handler = httpHandler(
  route("PATCH /api/v1/submissions/{submissionId}"),
  { body },
  ({ principal, params, body, sourceIp }) => patchSubmission(principal, sourceIp, params.submissionId, body),
);
