/**
 * Writes an operator's record (an EMF document, the "request done" line) as it is, to stdout,
 * whatever LOG_LEVEL says. Not through `console.log`: with Lambda's JSON log format the runtime
 * wraps a console line in its own JSON object (as a string under `message`), and CloudWatch then
 * extracts no metric from it; a line written to stdout directly is kept as it is.
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Libraries.html
 *
 * Here rather than in lib/log.ts, which reads the settings: the constant routes (the CORS
 * preflight, the 404) write this line too, and would load lib/config.ts for nothing
 * (docs/performance.md, section 10).
 */
export function writeRecord(entry: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}
