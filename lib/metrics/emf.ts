import { METRICS_NAMESPACE, type MetricName } from "./catalog";

/**
 * CloudWatch's Embedded Metric Format, written by hand rather than with Powertools' Metrics
 * utility: the utility is 15.5 KB minified, and the queue consumer's bundle (493.4 KB) would pass
 * the 500 KB bundle bar with it (docs/performance.md, "Metrics and tracing"). The format is small:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 *
 * One EMF document carries one dimension set for all its metrics, so an invocation's metrics are
 * grouped by their dimensions: one document per distinct set. Counts of the same metric are
 * summed; timings stay a list of samples (up to 100 values per metric, the format's limit).
 */

export type MetricUnit = "Count" | "Milliseconds";
export type Dimensions = Readonly<Record<string, string>>;

export interface EmfEntry {
  name: MetricName;
  unit: MetricUnit;
  dimensions: Dimensions;
  value: number;
}

/** The format's limit on values of one metric in one document. */
const MAX_VALUES = 100;

interface Group {
  dimensions: Dimensions;
  metrics: Map<MetricName, { unit: MetricUnit; values: number[] }>;
}

/** The EMF documents for `entries`, one per dimension set, in the order the sets first appear. */
export function emfDocuments(entries: readonly EmfEntry[], timestamp: number): Record<string, unknown>[] {
  const groups = new Map<string, Group>();
  for (const entry of entries) {
    const names = Object.keys(entry.dimensions).sort();
    const key = JSON.stringify(names.map((name) => [name, entry.dimensions[name]]));
    let group = groups.get(key);
    if (!group) {
      group = { dimensions: entry.dimensions, metrics: new Map() };
      groups.set(key, group);
    }
    const metric = group.metrics.get(entry.name);
    if (!metric) group.metrics.set(entry.name, { unit: entry.unit, values: [entry.value] });
    else if (entry.unit === "Count") metric.values[0] = (metric.values[0] ?? 0) + entry.value;
    else if (metric.values.length < MAX_VALUES) metric.values.push(entry.value);
  }
  return [...groups.values()].map(({ dimensions, metrics }) => {
    const document: Record<string, unknown> = {
      _aws: {
        Timestamp: timestamp,
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [Object.keys(dimensions).sort()],
            Metrics: [...metrics].map(([name, { unit }]) => ({ Name: name, Unit: unit })),
          },
        ],
      },
      ...dimensions,
    };
    for (const [name, { values }] of metrics) document[name] = values.length === 1 ? values[0] : values;
    return document;
  });
}
