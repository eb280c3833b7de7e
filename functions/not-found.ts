import { AppError } from "../lib/errors";
import { httpHandler } from "../lib/http/handler";

/** The `$default` route: every request no other route matches gets the JSON 404 envelope. */
export const handler = httpHandler("$default", {}, async ({ event }) => {
  throw new AppError("NOT_FOUND", `No route for ${event.requestContext.http.method} ${event.rawPath}`);
});
