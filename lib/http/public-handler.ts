import type { ROUTES } from "../../functions/routes";
import { buildHandler, type Options, type RequestContext } from "./chain";

/** Route keys whose table entry says `auth: "public"`. */
export type PublicRouteKey = Extract<(typeof ROUTES)[number], { auth: "public" }>["route"];

/**
 * Builds a public route's Lambda handler: the shared chain without authentication. It imports
 * neither lib/auth/principal.ts nor the API-key code, so a public function (intake, signup, login) loads
 * only what it uses (docs/performance.md, section 1). `routeKey` ties the handler to its route
 * table entry; the type admits public routes only.
 */
export function publicHandler<B = undefined, Q = Record<string, string | undefined>>(
  _routeKey: PublicRouteKey,
  options: Options<B, Q>,
  fn: (ctx: RequestContext<B, Q, undefined>) => Promise<unknown>,
) {
  return buildHandler<B, Q, undefined>(options, undefined, fn);
}
