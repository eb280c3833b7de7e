import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import { Role, ServicePrincipal } from "aws-cdk-lib/aws-iam";
import { Architecture, LoggingFormat, Runtime, SystemLogLevel, Tracing } from "aws-cdk-lib/aws-lambda";
import { NodejsFunction, type OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { LogGroup, RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { TRACER_PACKAGE } from "../lib/aws/tracing";
import { LAMBDA_BUNDLING } from "./bundling";
import { type FunctionEnvironment, setEnvironment } from "./environment";
import { platformLogsFromContext, tracingFromContext } from "./operator-context";

/** The repository root: entries, the lock file and tsconfig are resolved from here. */
export const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

export const FUNCTION_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memoryMb: 256,
  timeoutSeconds: 10,
  logRetention: RetentionDays.ONE_MONTH,
  /**
   * Lambda's own log lines (START, END and REPORT: `platform.start`, `platform.report` in the JSON
   * format) are "system logs", which Lambda filters by level apart from the function's own once
   * the log format is JSON: "Lambda only sends system logs at the selected level of detail and
   * lower, where DEBUG is the highest level and WARN is the lowest"
   * (https://docs.aws.amazon.com/lambda/latest/api/API_LoggingConfig.html; the levels:
   * https://docs.aws.amazon.com/lambda/latest/dg/monitoring-cloudwatchlogs-log-level.html). Those
   * three record an invocation's normal operation, INFO, and cost ~300 bytes of ingestion per
   * invocation, more than the function's own line; at WARN Lambda keeps only its warnings (a
   * failed or timed-out invocation). What they carried is kept elsewhere: the duration, errors
   * and throttles as Lambda's metrics, the cold start and latency on the "request done" line
   * (docs/metrics.md). `-c platformLogs=on` brings them back (docs/operations.md).
   */
  systemLogLevel: SystemLogLevel.WARN,
} as const;

export interface InletFunctionProps {
  /** Handler module under functions/, without extension (a RouteDef's `handler`). */
  handler: string;
  description?: string;
  memoryMb?: number;
  timeoutSeconds?: number;
  environment?: FunctionEnvironment;
}

/**
 * The one place that holds the Lambda runtime defaults; callers state only what differs.
 *
 * - nodejs22.x on arm64 (Graviton: ~20% cheaper per GB-second than x86_64).
 * - ESM bundle, minified, with the AWS SDK bundled in: the bundled, tree-shaken clients load
 *   faster at cold start than the runtime's full copy, and the SDK version is the one we test.
 * - Source maps are uploaded for offline symbolication, but NODE_OPTIONS=--enable-source-maps is
 *   deliberately not set: it costs milliseconds on every cold start and on every stack trace.
 * - Its own execution role and log group: the role may write to this log group only, instead of
 *   the AWSLambdaBasicExecutionRole managed policy (logs:CreateLogGroup and write on every log
 *   group of the account).
 */
export class InletFunction extends Construct {
  readonly fn: NodejsFunction;
  readonly logGroup: LogGroup;
  readonly role: Role;

  constructor(scope: Construct, id: string, props: InletFunctionProps) {
    super(scope, id);

    // Created explicitly so it has a retention and is removed with the stack (logs are not
    // stateful data); the function's role is granted write access to it alone.
    this.logGroup = new LogGroup(this, "LogGroup", {
      retention: FUNCTION_DEFAULTS.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.role = new Role(this, "Role", {
      assumedBy: new ServicePrincipal("lambda.amazonaws.com"),
      description: `Execution role of functions/${props.handler}`,
    });
    this.logGroup.grantWrite(this.role);

    // X-Ray active tracing only when the operator asks for it (`-c tracing=on`): it adds to every
    // cold start and costs per trace (docs/operations.md, "Tracing").
    const tracing = tracingFromContext(this);
    const systemLogLevel = platformLogsFromContext(this) ? SystemLogLevel.INFO : FUNCTION_DEFAULTS.systemLogLevel;

    this.fn = new NodejsFunction(this, "Function", {
      entry: join(PROJECT_ROOT, "functions", `${props.handler}.ts`),
      handler: "handler",
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, "package-lock.json"),
      description: props.description,
      runtime: FUNCTION_DEFAULTS.runtime,
      architecture: FUNCTION_DEFAULTS.architecture,
      memorySize: props.memoryMb ?? FUNCTION_DEFAULTS.memoryMb,
      timeout: Duration.seconds(props.timeoutSeconds ?? FUNCTION_DEFAULTS.timeoutSeconds),
      role: this.role,
      logGroup: this.logGroup,
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: systemLogLevel,
      tracing: tracing ? Tracing.ACTIVE : undefined,
      // One set of options (infra/bundling.ts), shared with the bench and the bundle-size test.
      bundling: {
        ...LAMBDA_BUNDLING,
        format: LAMBDA_BUNDLING.format as OutputFormat,
        mainFields: [...LAMBDA_BUNDLING.mainFields],
        // With tracing on, lib/aws/tracing.ts imports Powertools' Tracer at run time by a name
        // esbuild does not follow: the package ships in the function's node_modules (installed
        // by `npm install` at synth, so a traced synth needs the registry). Off, nothing ships.
        ...(tracing ? { nodeModules: [TRACER_PACKAGE] } : {}),
      },
    });

    NagSuppressions.addResourceSuppressions(this.fn, [
      {
        id: "AwsSolutions-L1",
        reason:
          "nodejs22.x is pinned on purpose: bundles target node22 and the local stack and tests run on Node 20/22, so a runtime upgrade (nodejs24.x) is a deliberate change made in FUNCTION_DEFAULTS after testing, not a silent bump. Node.js 22 is an active LTS release with security support until April 2027.",
      },
    ]);

    if (tracing) {
      // The code captures its SDK clients when TRACING is on (lib/config.ts).
      setEnvironment(this.fn, { TRACING: "on" });
      NagSuppressions.addResourceSuppressions(
        this.role,
        [
          {
            id: "AwsSolutions-IAM5",
            reason:
              "Active tracing (CDK context `tracing=on`) grants xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permission (https://docs.aws.amazon.com/xray/latest/devguide/security_iam_service-with-iam.html), so their resource is '*'.",
            appliesTo: ["Resource::*"],
          },
        ],
        true,
      );
    }

    if (props.environment) setEnvironment(this.fn, props.environment);
  }
}
