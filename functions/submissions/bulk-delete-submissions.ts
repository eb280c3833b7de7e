import { httpHandler } from "../../lib/http/handler";
import { MAX_BULK_DELETE, removeSubmissions } from "../../lib/submissions";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  ids: z.array(z.string().check(z.minLength(1), z.maxLength(64))).check(z.minLength(1), z.maxLength(MAX_BULK_DELETE)),
});

export const handler = httpHandler(route("POST /api/v1/submissions/bulk-delete"), { body }, ({ principal, body, sourceIp }) =>
  removeSubmissions(principal, sourceIp, body.ids),
);
