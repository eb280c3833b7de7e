import type { Template } from "aws-cdk-lib/assertions";
import { Annotations, Match } from "aws-cdk-lib/assertions";
import { BOOKKEEPER, DIGESTS, EMAIL_EVENTS, QUEUE_CONSUMER, ROUTES } from "../../../functions/routes";
import { FUNCTION_DEFAULTS } from "../../../infra/inlet-function";
import { loadApp, type Resource, type Synthesized, synth } from "./support";

/**
 * What every function logs to CloudWatch besides its own lines: Lambda's START, END and REPORT
 * lines are dropped by its advanced logging controls (infra/inlet-function.ts), unless the
 * operator asks for them.
 */

let app: Synthesized;

/** Every function of the stack's own (InletFunction), the SES events' one included; not CDK's helpers. */
const ownFunctions = (template: Template): Resource[] =>
  (Object.values(template.findResources("AWS::Lambda::Function")) as Resource[]).filter((r) =>
    String(r.Properties.Description).startsWith("Inlet"),
  );

beforeAll(() => {
  app = loadApp();
});

describe("Lambda's own log lines", () => {
  test("every function logs JSON with the system log level WARN: no START, END or REPORT line per invocation", () => {
    const functions = ownFunctions(app.template);
    // Every route's function, the queue consumer, the bookkeeper, the SES events' function and the digest run.
    const handlers = new Set([
      ...ROUTES.map((r) => r.handler),
      QUEUE_CONSUMER.handler,
      BOOKKEEPER.handler,
      EMAIL_EVENTS.handler,
      DIGESTS.handler,
    ]);
    expect(functions).toHaveLength(handlers.size);
    expect(FUNCTION_DEFAULTS.systemLogLevel).toBe("WARN");
    for (const fn of functions) {
      expect([fn.Properties.Description, fn.Properties.LoggingConfig]).toEqual([
        fn.Properties.Description,
        {
          LogFormat: "JSON",
          SystemLogLevel: "WARN",
          LogGroup: expect.anything(),
        },
      ]);
      // The function's own lines are not filtered by Lambda: LOG_LEVEL decides (lib/log.ts).
      expect(fn.Properties.LoggingConfig.ApplicationLogLevel).toBeUndefined();
    }
  });

  test("-c platformLogs=on keeps them (INFO) on every function; anything but on or off is refused", () => {
    const kept = synth({ platformLogs: "on" });
    const functions = ownFunctions(kept.template);
    expect(functions.length).toBeGreaterThan(50);
    for (const fn of functions) expect(fn.Properties.LoggingConfig).toMatchObject({ LogFormat: "JSON", SystemLogLevel: "INFO" });
    const findings = Annotations.fromStack(kept.stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*"));
    expect(findings).toEqual([]);
    for (const value of ["off", "false"]) {
      const dropped = ownFunctions(synth({ platformLogs: value }).template);
      for (const fn of dropped) expect(fn.Properties.LoggingConfig.SystemLogLevel).toBe("WARN");
    }
    expect(() => synth({ platformLogs: "debug" })).toThrow(/platformLogs.*"on" or "off"/);
  });
});
