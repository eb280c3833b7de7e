import { resolveApiKey } from "./api-key-auth";
import type { Principal } from "./principal";
import { bearerToken, resolveSession, unauthorized } from "./sessions";
import { tokenKind } from "./tokens";

export async function authenticate(authorization: string | undefined): Promise<Principal> {
  const token = bearerToken(authorization);
  const kind = tokenKind(token);
  if (kind === "session") return resolveSession(token);
  if (kind === "apiKey") return resolveApiKey(token);
  throw unauthorized();
}
