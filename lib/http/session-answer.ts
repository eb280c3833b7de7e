import { clearedSessionCookie, sessionCookie, wantsSessionCookie } from "../auth/session-cookie";
import { RawResponse, successResponse } from "./response";

/**
 * A sign-in's answer (signup, login): the session token in the body for API clients, or, when
 * the request asked for it (`X-Inlet-Session: cookie`, the dashboard), in an HttpOnly cookie and
 * nowhere in the body, so no page script ever holds it.
 */
export function signedIn<T extends { token: string; expiresAt: string }>(
  result: T,
  headers: Record<string, string | undefined> | undefined,
  status = 200,
): T | RawResponse {
  if (!wantsSessionCookie(headers)) return result;
  const { token, ...rest } = result;
  return new RawResponse({ ...successResponse(rest, status), cookies: [sessionCookie(token, result.expiresAt)] });
}

/** Sign-out's answer: the cookie is removed whatever carried the session. */
export const signedOut = (data: unknown) => new RawResponse({ ...successResponse(data), cookies: [clearedSessionCookie()] });
