import { Duration, NestedStack, RemovalPolicy, Stack } from "aws-cdk-lib";
import { AccessLogFormat } from "aws-cdk-lib/aws-apigateway";
import {
  type CfnStage,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  LogGroupLogDestination,
} from "aws-cdk-lib/aws-apigatewayv2";
import { HttpLambdaIntegration } from "aws-cdk-lib/aws-apigatewayv2-integrations";
import { Alarm, ComparisonOperator, TreatMissingData } from "aws-cdk-lib/aws-cloudwatch";
import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { ROUTES, type RouteDef } from "../functions/routes";
import { bindRoute, grantContextOf, setEnvironment, settingsFromContext } from "./environment";
import { InletFunction } from "./inlet-function";
import { bindNotifications, bindSuppressionRemoval } from "./notifications";

/** API Gateway's route key of the catch-all route. */
export const DEFAULT_ROUTE_KEY = "$default";

/**
 * Throttling per route family (API Gateway token buckets: a steady rate per second and a burst),
 * so one anonymous flood cannot starve everyone: a flood of signups or logins meets the
 * authentication limit and leaves intake and management alone, a flood of junk posts to intake
 * URLs leaves sign-in and the management API alone. Each route of a family gets its family's
 * limits as its route settings (an HTTP API throttles each route by its own bucket); together they
 * stay under the account's regional quota (10,000 rps, shared by every API of the account).
 * An operator changes them with CDK context: `-c intakeThrottle=500/1000` (rate/burst), and the
 * same for `authThrottle` and `managementThrottle` (docs/deployment.md, "Throttling").
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-throttling.html
 */
export const ROUTE_FAMILY_THROTTLES = {
  /** Lead sources: forms, ads platforms, automation tools. The busiest, and the product's purpose. */
  intake: { rateLimit: 200, burstLimit: 400 },
  /** Signup, login and the address's links: people typing, plus scripted abuse to keep out. */
  auth: { rateLimit: 10, burstLimit: 20 },
  /** The management API (integrators' keys and the dashboard's sessions) and the catch-all 404. */
  management: { rateLimit: 50, burstLimit: 100 },
} as const;

export type RouteFamily = keyof typeof ROUTE_FAMILY_THROTTLES;

/**
 * The path prefix of each route family but management, which is everything else. One list for
 * the throttles, the access log's metric filters and the dashboard (infra/api-metrics.ts).
 */
export const FAMILY_PATH_PREFIX = { intake: "/api/v1/incoming/", auth: "/api/v1/auth/" } as const;

/** The family of a request path. */
export function pathFamily(path: string): RouteFamily {
  if (path.startsWith(FAMILY_PATH_PREFIX.intake)) return "intake";
  if (path.startsWith(FAMILY_PATH_PREFIX.auth)) return "auth";
  return "management";
}

/**
 * Routes under the auth prefix that belong to the management family: every one that needs a
 * signed-in session (the dashboard's session check, which every page load makes, sign-out, the
 * account's own settings, password and address). A route's throttle is one bucket shared by every
 * caller, so in the auth family anonymous login and signup traffic would make them 429 for every
 * signed-in person (docs/deployment.md, "Throttling"). Only the anonymous routes stay in the auth
 * family (signup, login, the reset and reclaim requests, a link's description); signup and login
 * are protected per address by the optional firewall instead (infra/sign-in-firewall.ts).
 */
export const SESSION_ROUTES: readonly string[] = ROUTES.filter(
  (r) => r.auth !== "public" && pathFamily(r.route.split(" ")[1] ?? "") === "auth",
).map((r) => r.route);

/** The throttling family of a route key: by its path (`$default` is management's), session routes apart. */
export function throttleFamily(routeKey: string): RouteFamily {
  if (SESSION_ROUTES.includes(routeKey)) return "management";
  return pathFamily(routeKey.split(" ")[1] ?? "");
}

/**
 * API Gateway's access log line. Field names are those of the line each function writes at the
 * end of a request (requestId, route, status, latencyMs) with the same meaning, so one Logs
 * Insights query reads both
 * (docs/operations.md); the rest only the gateway knows. `status` and `latencyMs` are numbers
 * (unquoted in the template) so metric filters can compare and aggregate them; the integration's
 * fields are strings, since a request refused before its integration (throttled, 429) has none.
 * Never a body, a query string (an intake URL may carry its secret as `?key=`), a header or the
 * caller's address: behind CloudFront it is an edge's, and a visitor's address is personal data
 * that no question these logs answer needs (docs/operations.md, "Access log").
 * Variables: https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-logging-variables.html
 */
export const ACCESS_LOG_FIELDS = {
  // The function's request id (Lambda's, which the functions log and put in a 500's body), so
  // one id finds a request in both logs; `-` when no function ran. The gateway's own id beside it.
  requestId: '"$context.integration.requestId"',
  gatewayRequestId: '"$context.requestId"',
  route: '"$context.routeKey"',
  status: "$context.status",
  latencyMs: "$context.responseLatency",
  method: '"$context.httpMethod"',
  path: '"$context.path"',
  requestTime: '"$context.requestTime"',
  protocol: '"$context.protocol"',
  responseLength: '"$context.responseLength"',
  integrationStatus: '"$context.integrationStatus"',
  integrationLatencyMs: '"$context.integrationLatency"',
  integrationError: '"$context.integrationErrorMessage"',
  error: '"$context.error.message"',
} as const;

/** The access log format: one JSON object per request. */
export const ACCESS_LOG_FORMAT = `{${Object.entries(ACCESS_LOG_FIELDS)
  .map(([field, value]) => `"${field}":${value}`)
  .join(",")}}`;

/**
 * The AwsSolutions rules that concern an HTTP API route, suppressed on each route resource alone
 * (not on every child of the API: suppression metadata repeated on each function, role and
 * permission made one template 650 KB).
 */
const ROUTE_SUPPRESSIONS = [
  {
    id: "AwsSolutions-APIG4",
    reason:
      "Authorization happens in each route's function: session and API-key bearer tokens are looked up in the table by lib/ (routes with auth 'session' or 'bearer' in functions/routes.ts). Routes with auth 'public' (signup, login, $default's 404) are public by design. A Lambda authorizer would add a second invocation and table read per request for no added control.",
  },
  {
    id: "AwsSolutions-COG4",
    reason:
      "Inlet has no Cognito user pool: its users authenticate with its own session tokens and API keys, checked by the route functions (see AwsSolutions-APIG4).",
  },
];

/** The family limits, each overridable by its context value `<family>Throttle=<rate>/<burst>`. */
export function familyThrottles(scope: Construct): Record<RouteFamily, { rateLimit: number; burstLimit: number }> {
  const out = { ...ROUTE_FAMILY_THROTTLES } as Record<RouteFamily, { rateLimit: number; burstLimit: number }>;
  for (const family of Object.keys(ROUTE_FAMILY_THROTTLES) as RouteFamily[]) {
    const key = `${family}Throttle`;
    const raw: unknown = scope.node.tryGetContext(key);
    if (raw === undefined || raw === null || raw === "") continue;
    const match = /^\s*(\d+(?:\.\d+)?)\s*\/\s*(\d+)\s*$/.exec(String(raw));
    const rateLimit = Number(match?.[1]);
    const burstLimit = Number(match?.[2]);
    if (!match || rateLimit <= 0 || burstLimit <= 0 || burstLimit > 5000 || rateLimit > 10_000) {
      throw new Error(
        `Context value ${key}=${JSON.stringify(raw)} is not <rate>/<burst> (requests per second, then burst; e.g. ${key}=${ROUTE_FAMILY_THROTTLES[family].rateLimit}/${ROUTE_FAMILY_THROTTLES[family].burstLimit}; burst at most 5000)`,
      );
    }
    out[family] = { rateLimit, burstLimit };
  }
  return out;
}

/** `auth/signup` → `AuthSignup`: stable construct ids derived from the handler path. */
export function constructName(handler: string): string {
  return handler
    .split(/[/-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join("");
}

/** `"POST /api/v1/sites/{id}"` → its method and path. */
export function parseRouteKey(routeKey: string): { method: HttpMethod; path: string } {
  const [method, path, ...rest] = routeKey.split(" ");
  if (!method || !path || rest.length > 0 || !Object.values<string>(HttpMethod).includes(method)) {
    throw new Error(`Route key ${JSON.stringify(routeKey)} is not "<METHOD> <path>"`);
  }
  return { method: method as HttpMethod, path };
}

export interface InletHttpApiProps {
  table: ITable;
  queue: IQueue;
  /** The export bucket, for routes with `bucket: "write"`. */
  exportBucket?: IBucket;
  /** Defaults to the route table in functions/routes.ts. */
  routes?: readonly RouteDef[];
}

/**
 * The HTTP API and one function per route table entry. `$default` is the API's default route:
 * whatever no other route matches, OPTIONS preflights included, reaches the not-found function.
 * API Gateway's own CORS handling stays off (no `corsPreflight`), so the handlers decide.
 */
export class InletHttpApi extends Construct {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** By route key. */
  readonly functions: ReadonlyMap<string, InletFunction>;
  readonly serverErrorAlarm: Alarm;
  /** The stage's access log (ACCESS_LOG_FIELDS). */
  readonly accessLogs: LogGroup;
  /** The nested stack of each route family, by family (the handler's folder). */
  readonly routeStacks: ReadonlyMap<string, NestedStack>;

  constructor(scope: Construct, id: string, props: InletHttpApiProps) {
    super(scope, id);
    const routes: readonly RouteDef[] = props.routes ?? ROUTES;

    const functions = new Map<string, InletFunction>();
    const names = new Set<string>();
    const families = new Map<string, NestedStack>();
    /**
     * Where a route's resources live: a nested stack per route family (the handler's folder), so
     * each template stays far below CloudFormation's 500-resource quota as routes are added
     * (docs/deployment.md, "Headroom"); the catch-all route's function stays here, beside the API
     * whose default integration it is.
     */
    const scopeOf = (route: RouteDef): Construct => {
      const family = route.handler.includes("/") ? route.handler.slice(0, route.handler.indexOf("/")) : undefined;
      if (family === undefined) return this;
      let stack = families.get(family);
      if (!stack) {
        stack = new NestedStack(this, `Routes${constructName(family)}`, { description: `Inlet: the ${family} routes` });
        families.set(family, stack);
      }
      return stack;
    };
    // The operator's settings, every function's (BASE_URL, the distribution's URL, is set by the
    // stack, infra/stack.ts); they decide signup's grant too (the first-account rule).
    const settings = settingsFromContext(this);
    const grants = grantContextOf(settings);
    for (const route of routes) {
      const name = constructName(route.handler);
      if (names.has(name)) throw new Error(`Two routes use handler ${route.handler}`);
      names.add(name);
      const fn = new InletFunction(scopeOf(route), `Function${name}`, {
        handler: route.handler,
        description: `Inlet ${route.route}`,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
      });
      bindRoute(fn.fn, route, { table: props.table, queue: props.queue, bucket: props.exportBucket }, grants);
      // Signup and the address's links send their own emails (docs/accounts.md).
      if (route.email === "send") bindNotifications(fn.fn);
      // Lifting a form's suppressed address takes it off SES's suppression list (docs/email.md).
      if (route.email === "unsuppress") bindSuppressionRemoval(fn.fn);
      functions.set(route.route, fn);
    }
    this.functions = functions;
    this.routeStacks = families;

    const fallback = functions.get(DEFAULT_ROUTE_KEY);
    if (!fallback) throw new Error(`The route table has no ${DEFAULT_ROUTE_KEY} entry`);

    this.api = new HttpApi(this, "Api", {
      apiName: `${Stack.of(this).stackName}-http`,
      description: "Inlet HTTP API",
      defaultIntegration: new HttpLambdaIntegration("IntegrationDefault", fallback.fn),
      // The stage below replaces the default one so it can carry access logs and throttling.
      createDefaultStage: false,
    });

    const throttles = familyThrottles(this);
    this.accessLogs = new LogGroup(this, "LogGroupAccess", {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.stage = new HttpStage(this, "StageDefault", {
      httpApi: this.api,
      stageName: "$default",
      autoDeploy: true,
      // Any route without settings of its own (none today) falls back to management's limits.
      throttle: throttles.management,
      accessLogSettings: {
        destination: new LogGroupLogDestination(this.accessLogs),
        format: AccessLogFormat.custom(ACCESS_LOG_FORMAT),
      },
    });

    for (const route of routes) {
      if (route.route === DEFAULT_ROUTE_KEY) continue;
      const fn = functions.get(route.route);
      if (!fn) throw new Error(`No function for ${route.route}`);
      const { method, path } = parseRouteKey(route.route);
      const name = constructName(route.handler);
      const httpRoute = new HttpRoute(scopeOf(route), `Route${name}`, {
        httpApi: this.api,
        routeKey: HttpRouteKey.with(path, method),
        integration: new HttpLambdaIntegration(`Integration${name}`, fn.fn),
      });
      NagSuppressions.addResourceSuppressions(httpRoute.node.defaultChild as Construct, ROUTE_SUPPRESSIONS);
    }
    const defaultRoute = this.api.node.tryFindChild("DefaultRoute");
    if (!defaultRoute?.node.defaultChild) throw new Error("The HTTP API has no default route to suppress APIG4/COG4 on");
    NagSuppressions.addResourceSuppressions(defaultRoute.node.defaultChild, ROUTE_SUPPRESSIONS);

    // Each route's own limits, by family. The stage names routes by key, so it is created after
    // the nested stacks that create them (a route setting for a route not yet there fails).
    const cfnStage = this.stage.node.defaultChild as CfnStage;
    cfnStage.routeSettings = Object.fromEntries(
      routes.map((route) => {
        const limits = throttles[throttleFamily(route.route)];
        return [route.route, { ThrottlingRateLimit: limits.rateLimit, ThrottlingBurstLimit: limits.burstLimit }];
      }),
    );
    for (const stack of families.values()) this.stage.node.addDependency(stack);
    // $default is among the route settings too, and is created in this template: without the
    // dependency CloudFormation may create the stage first and fail on a route that is not there.
    this.stage.node.addDependency(defaultRoute);

    for (const fn of functions.values()) setEnvironment(fn.fn, settings);

    this.serverErrorAlarm = new Alarm(this, "AlarmServerErrors", {
      alarmDescription: "The HTTP API returned 5xx responses in the last 5 minutes. See docs/operations.md (Alarms).",
      metric: this.api.metricServerError({ period: Duration.minutes(5), statistic: "Sum" }),
      threshold: 0,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
