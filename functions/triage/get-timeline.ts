import { httpHandler } from "../../lib/http/handler";
import { pageQuery } from "../../lib/http/page-query";
import { readTimeline } from "../../lib/timeline";
import { route } from "../routes";

export const handler = httpHandler(
  route("GET /api/v1/submissions/{submissionId}/timeline"),
  { query: pageQuery },
  ({ principal, params, query }) => readTimeline(principal, params.submissionId, query.limit, query.cursor),
);
