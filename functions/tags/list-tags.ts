import { httpHandler } from "../../lib/http/handler";
import { readTags } from "../../lib/tags";
import { route } from "../routes";

export const handler = httpHandler(route("GET /api/v1/tags"), {}, ({ principal }) => readTags(principal));
