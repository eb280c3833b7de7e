import { httpHandler } from "../../lib/http/handler";
import { createTag, tagColour, tagName } from "../../lib/tags";
import * as z from "../../lib/validation";
import { route } from "../routes";

const body = z.strictObject({ name: tagName, colour: tagColour });

export const handler = httpHandler(route("POST /api/v1/tags"), { body, status: 201 }, ({ principal, body, sourceIp }) =>
  createTag(principal, sourceIp, body),
);
