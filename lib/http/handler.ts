import { authenticate, authenticateCookie } from "../auth/authenticate";
import { authorize, type RouteRequirements } from "../auth/authorize";
import type { Principal, SessionPrincipal } from "../auth/principal";
import { sessionFromCookies } from "../auth/session-cookie";
import {
  buildHandler,
  header,
  type InletMiddleware,
  type InletRequest,
  type Options,
  type PathParams,
  type RequestContext,
} from "./chain";

/** A route table entry that needs credentials (functions/routes.ts hands its own entries in). */
export type AuthenticatedRoute = RouteRequirements & { route: string; auth: "session" | "bearer" };

/** The principal a route's handler receives follows from its entry's `auth`. */
export type PrincipalFor<R extends AuthenticatedRoute> = R["auth"] extends "session" ? SessionPrincipal : Principal;

const authentication = (route: AuthenticatedRoute): InletMiddleware => ({
  before: async (request: InletRequest) => {
    // A bearer token (API clients) first; else the dashboard's session cookie.
    const event = request.event;
    const authorization = header(event, "authorization");
    const cookie = authorization === undefined ? sessionFromCookies(event.cookies) : undefined;
    const principal =
      cookie === undefined
        ? await authenticate(authorization)
        : await authenticateCookie(cookie, event.requestContext.http.method, header(event, "origin"));
    request.event.inlet ??= {};
    const state = request.event.inlet;
    state.principal = principal;
    if (principal.kind === "apiKey") {
      state.responseHeaders = principal.responseHeaders;
      state.pending = principal.pending;
    }
    authorize(route, principal);
  },
});

/**
 * Builds an authenticated route's Lambda handler from its route table entry: the shared chain
 * (lib/http/chain.ts) with the session or API-key authentication and the entry's authorization
 * before the body is read. Public routes use `publicHandler` (lib/http/public-handler.ts)
 * instead; the types keep each to its own routes.
 */
export function httpHandler<R extends AuthenticatedRoute, B = undefined, Q = Record<string, string | undefined>>(
  route: R,
  options: Options<B, Q>,
  fn: (ctx: RequestContext<B, Q, PrincipalFor<R>, PathParams<R["route"]>>) => Promise<unknown>,
) {
  return buildHandler<B, Q, PrincipalFor<R>, PathParams<R["route"]>>(route, options, authentication(route), fn);
}
