import { ROUTES, type RouteKey, routeDef } from "../../functions/routes";
import { authenticate, authorize, type Principal, type SessionPrincipal } from "../auth/principal";
import { buildHandler, header, type InletMiddleware, type InletRequest, type Options, type RequestContext } from "./chain";

/** Route keys whose table entry says `auth: "session"` or `"bearer"`. */
export type AuthenticatedRouteKey = Exclude<(typeof ROUTES)[number], { auth: "public" }>["route"];

/** The principal a route's handler receives follows from the route table's `auth`. */
type AuthOf<K extends RouteKey> = Extract<(typeof ROUTES)[number], { route: K }>["auth"];
export type PrincipalFor<K extends RouteKey> = AuthOf<K> extends "session" ? SessionPrincipal : Principal;

const authentication = (routeKey: AuthenticatedRouteKey): InletMiddleware => {
  const route = routeDef(routeKey);
  return {
    before: async (request: InletRequest) => {
      const principal = await authenticate(header(request.event, "authorization"));
      (request.event.inlet ??= {}).principal = principal;
      authorize(route, principal);
    },
    after: async (request: InletRequest) => {
      const principal = request.event.inlet?.principal;
      if (principal?.kind === "apiKey") {
        if (request.response) Object.assign(request.response.headers, principal.responseHeaders);
        await principal.pending;
      }
    },
  };
};

/**
 * Builds an authenticated route's Lambda handler: the shared chain (lib/http/chain.ts) with the
 * session or API-key authentication and the route table's authorization before the body is
 * read. Public routes use `publicHandler` (lib/http/public-handler.ts) instead; the types keep
 * each to its own routes.
 */
export function httpHandler<K extends AuthenticatedRouteKey, B = undefined, Q = Record<string, string | undefined>>(
  routeKey: K,
  options: Options<B, Q>,
  fn: (ctx: RequestContext<B, Q, PrincipalFor<K>>) => Promise<unknown>,
) {
  return buildHandler<B, Q, PrincipalFor<K>>(options, authentication(routeKey), fn);
}
