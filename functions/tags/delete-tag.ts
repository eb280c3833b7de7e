import { httpHandler } from "../../lib/http/handler";
import { removeTag } from "../../lib/tags";
import { route } from "../routes";

export const handler = httpHandler(route("DELETE /api/v1/tags/{tagId}"), {}, ({ principal, params, sourceIp }) =>
  removeTag(principal, sourceIp, params.tagId),
);
