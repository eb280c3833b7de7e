import { resolveApiKey } from "./api-key-auth";
import type { Principal } from "./principal";
import { checkCookieOrigin } from "./session-cookie";
import { bearerToken, resolveSession, unauthorized } from "./sessions";
import { tokenKind } from "./tokens";

/**
 * The session in the dashboard's cookie (lib/auth/session-cookie.ts): only a session token is
 * accepted there, and a state-changing request must come from the service's own origin.
 */
export async function authenticateCookie(token: string, method: string, origin: string | undefined): Promise<Principal> {
  if (tokenKind(token) !== "session") throw unauthorized();
  const principal = await resolveSession(token);
  checkCookieOrigin(method, origin);
  return principal;
}

export async function authenticate(authorization: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization);
  const kind = tokenKind(token);
  if (kind === "session") return resolveSession(token);
  if (kind === "apiKey") return resolveApiKey(token);
  throw unauthorized();
}
