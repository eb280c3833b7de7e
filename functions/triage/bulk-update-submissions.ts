import { httpHandler } from "../../lib/http/handler";
import { statusSchema, tagIdsSchema, userIdSchema } from "../../lib/triage";
import { bulkUpdateSubmissions, MAX_BULK_UPDATE } from "../../lib/triage-bulk";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  ids: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(MAX_BULK_UPDATE)),
  status: z.optional(statusSchema),
  ownerId: z.optional(z.nullable(userIdSchema)),
  addTags: z.optional(tagIdsSchema),
  removeTags: z.optional(tagIdsSchema),
});

export const handler = httpHandler(route("POST /api/v1/submissions/bulk-update"), { body }, ({ principal, body, sourceIp }) =>
  bulkUpdateSubmissions(principal, sourceIp, body),
);
