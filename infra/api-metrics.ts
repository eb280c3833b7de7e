import { Duration } from "aws-cdk-lib";
import { Metric, Unit } from "aws-cdk-lib/aws-cloudwatch";
import { FilterPattern, type ILogGroup, MetricFilter } from "aws-cdk-lib/aws-logs";
import { Construct } from "constructs";
import { FAMILY_PATH_PREFIX, type RouteFamily, SESSION_ROUTES } from "./http-api";

/** Where the per-family API metrics live: beside, not inside, the business metrics' `Inlet`. */
export const API_METRICS_NAMESPACE = "Inlet/Api";

export const ROUTE_FAMILIES: readonly RouteFamily[] = ["intake", "auth", "management"];

/** What each family's metric names start with (a metric filter's dimensions can only be log fields). */
const FAMILY_NAME: Record<RouteFamily, string> = { intake: "Intake", auth: "Auth", management: "Management" };

/**
 * The access-log condition that selects a family's requests (ACCESS_LOG_FIELDS.path and .route),
 * in parentheses, so a filter can add `&& ...` to it: by path prefix, with the session routes
 * counted where they are throttled, in management (throttleFamily).
 */
export function familyCondition(family: RouteFamily): string {
  const sessionRoutes = SESSION_ROUTES.map((route) => `$.route = "${route}"`);
  const notSessionRoutes = SESSION_ROUTES.map((route) => `$.route != "${route}"`);
  if (family === "management") {
    const byPath = `$.path != "${FAMILY_PATH_PREFIX.intake}*" && $.path != "${FAMILY_PATH_PREFIX.auth}*"`;
    return `((${byPath}) || ${sessionRoutes.join(" || ")})`;
  }
  if (family === "auth") return `($.path = "${FAMILY_PATH_PREFIX.auth}*" && ${notSessionRoutes.join(" && ")})`;
  return `($.path = "${FAMILY_PATH_PREFIX[family]}*")`;
}

export interface FamilyMetrics {
  requests: Metric;
  clientErrors: Metric;
  serverErrors: Metric;
  /** Latency as the gateway measured it (request in to response out), at a statistic such as p99. */
  latency(statistic: string): Metric;
}

/**
 * Requests, 4xx, 5xx and latency per route family, from the API's access log through metric
 * filters (12 custom metrics, about $3.60 a month). The alternative, the stage's detailed
 * metrics, publishes six metrics per route (over 300 for Inlet's routes, about $90 a month) and
 * still has no per-family percentile: latency percentiles cannot be summed across routes.
 * Metric filters publish nothing while no line matches, so the counts default to 0 whenever the
 * log receives lines, and the graphs read quiet periods as zero.
 */
export class ApiFamilyMetrics extends Construct {
  readonly families: Record<RouteFamily, FamilyMetrics>;

  constructor(scope: Construct, id: string, props: { accessLogs: ILogGroup }) {
    super(scope, id);
    const period = Duration.minutes(5);
    const entries = ROUTE_FAMILIES.map((family): [RouteFamily, FamilyMetrics] => {
      const name = FAMILY_NAME[family];
      const where = familyCondition(family);
      const filter = (kind: string, condition: string, value: string, unit: Unit, defaultValue?: number) => {
        const metricName = `${name}${kind}`;
        new MetricFilter(this, `Filter${metricName}`, {
          logGroup: props.accessLogs,
          filterPattern: FilterPattern.literal(`{ ${condition} }`),
          metricNamespace: API_METRICS_NAMESPACE,
          metricName,
          metricValue: value,
          unit,
          defaultValue,
        });
        return metricName;
      };
      const requests = filter("Requests", where, "1", Unit.COUNT, 0);
      const clientErrors = filter("ClientErrors", `${where} && $.status >= 400 && $.status < 500`, "1", Unit.COUNT, 0);
      const serverErrors = filter("ServerErrors", `${where} && $.status >= 500`, "1", Unit.COUNT, 0);
      const latency = filter("Latency", `${where} && $.latencyMs >= 0`, "$.latencyMs", Unit.MILLISECONDS);
      const sum = (metricName: string, label: string) =>
        new Metric({ namespace: API_METRICS_NAMESPACE, metricName, statistic: "Sum", period, label });
      return [
        family,
        {
          requests: sum(requests, "requests"),
          clientErrors: sum(clientErrors, "4xx"),
          serverErrors: sum(serverErrors, "5xx"),
          latency: (statistic) => new Metric({ namespace: API_METRICS_NAMESPACE, metricName: latency, statistic, period }),
        },
      ];
    });
    this.families = Object.fromEntries(entries) as Record<RouteFamily, FamilyMetrics>;
  }
}
