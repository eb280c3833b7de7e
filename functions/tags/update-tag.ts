import { httpHandler } from "../../lib/http/handler";
import { editTag, tagColour, tagName } from "../../lib/tags";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({
  name: z.optional(tagName),
  colour: z.optional(tagColour),
  updatedAt: z.optional(z.iso.datetime()),
});

export const handler = httpHandler(route("PUT /api/v1/tags/{tagId}"), { body }, ({ principal, params, body, sourceIp }) =>
  editTag(principal, sourceIp, params.tagId, body),
);
