import { publicHandler } from "../../lib/http/public-handler";
import { jsonResponse, RawResponse } from "../../lib/http/response";
import { answerForSite, isNavigation, withBrowserPages } from "../../lib/intake/browser-answer";
import { CORS_HEADERS } from "../../lib/intake/cors";
import { receiveSubmission } from "../../lib/intake/intake";
import { intakeAnswered } from "../../lib/metrics/record";
import { route } from "../routes";

/**
 * Spec 4.2: the result at the top level (not under `data`), or a 303 to `_redirect`; to a
 * browser navigation, a 303 to the form's own redirect, else the same answer as a page that
 * the site's domain may frame (docs/intake.md, "Browser answers").
 */
export const handler = withBrowserPages(
  publicHandler(
    route("POST /api/v1/incoming/{webhookId}"),
    { headers: CORS_HEADERS, answered: intakeAnswered },
    async ({ event, params, query, sourceIp }) => {
      const outcome = await receiveSubmission({
        webhookId: params.webhookId,
        query,
        headers: event.headers ?? {},
        body: event.body,
        isBase64Encoded: event.isBase64Encoded,
        sourceIp,
        onSite: (domain) => answerForSite(event, domain),
      });
      // The form's own redirect replaces the thank-you page of a browser navigation only.
      const location = outcome.redirect ?? ((await isNavigation(event.headers ?? {})) ? outcome.formRedirect : undefined);
      if (location) {
        return new RawResponse({
          statusCode: 303,
          headers: { location, "cache-control": "no-store" },
          body: "",
        });
      }
      return new RawResponse(jsonResponse(200, { success: true, ...outcome.result }));
    },
  ),
);
