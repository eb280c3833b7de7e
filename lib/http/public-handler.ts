import { buildHandler, type Options, type PathParams, type RequestContext } from "./chain";

/** A route table entry that needs no credentials. */
export interface PublicRoute {
  route: string;
  auth: "public";
}

/**
 * Builds a public route's Lambda handler from its route table entry: the shared chain without
 * authentication. It imports nothing from lib/auth/, so a public function (intake, signup,
 * login) loads only what it uses (docs/performance.md, section 1). The type admits public
 * entries only.
 */
export function publicHandler<R extends PublicRoute, B = undefined, Q = Record<string, string | undefined>>(
  route: R,
  options: Options<B, Q>,
  fn: (ctx: RequestContext<B, Q, undefined, PathParams<R["route"]>>) => Promise<unknown>,
) {
  return buildHandler<B, Q, undefined, PathParams<R["route"]>>(route, options, undefined, fn);
}
