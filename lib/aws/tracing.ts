import { describeError, log } from "../log";

/**
 * X-Ray subsegments for the AWS SDK clients when the operator turns tracing on (TRACING=on, the
 * `tracing` context value of the stack), through Powertools' Tracer rather than the ADOT layer:
 * the Tracer costs ~74 ms of import at a cold start on the bench machine, where the ADOT Node.js
 * layer is reported to add seconds (aws-observability/aws-otel-lambda#228,
 * open-telemetry/opentelemetry-lambda#263); docs/performance.md, "Metrics and tracing".
 *
 * The Tracer is 127 KB minified (aws-xray-sdk-core): bundled, it would put the queue consumer
 * over the 500 KB bundle bar and be parsed at every cold start. So it is loaded here by a
 * specifier esbuild does not follow, only when tracing is on: the stack ships the package in
 * the function's node_modules then (NodejsFunction `nodeModules`), and off, nothing is loaded.
 */
export const TRACER_PACKAGE: string = "@aws-lambda-powertools/tracer";

interface TracerLike {
  captureAWSv3Client<T>(client: T): T;
}

let tracer: Promise<TracerLike> | undefined;

function loadTracer(): Promise<TracerLike> {
  tracer ??= (import(TRACER_PACKAGE) as Promise<{ Tracer: new (options: { serviceName: string }) => TracerLike }>).then(
    ({ Tracer }) => new Tracer({ serviceName: "inlet" }),
  );
  return tracer;
}

interface Sender {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK clients' send is overloaded; any of them is passed through
  send(...args: any[]): Promise<any>;
}

/**
 * Traces `client`'s calls when `enabled`: the Tracer adds its middleware to the client's stack,
 * and until it is loaded `sender`'s calls wait for it (a stack is read when a call starts, so a
 * call started before would go untraced). `sender` is the object the code calls `send` on: the
 * client itself, or the document client built over it, which shares its middleware stack. A
 * Tracer that cannot be loaded is logged and the calls go untraced, never failed.
 */
export function traceClient<C>(client: C, sender: Sender, enabled: boolean): void {
  if (!enabled) return;
  const ready = loadTracer()
    .then((t) => {
      t.captureAWSv3Client(client);
    })
    .catch((error: unknown) => log.warn("tracing is on but the Tracer could not be loaded", describeError(error)));
  const send = sender.send.bind(sender);
  sender.send = async (...args) => {
    await ready;
    return send(...args);
  };
}
