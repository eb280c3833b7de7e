import { build } from "esbuild";
import type { FunctionEnvironment } from "../../../infra/environment";
import {
  type Config,
  type ConfigInput,
  type ConfigKey,
  checkSetting,
  type LocalConfig,
  PLANS,
  type Plan,
  parseConfig,
  parseLocalConfig,
  SENDER_PATTERN,
  settingDefault,
} from "../../../lib/config";

const base = { TABLE_NAME: "inlet-table" };

/** The message parseConfig throws for `env`, or "" if it parses. */
function problemsOf(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
    return "";
  } catch (error) {
    return (error as Error).message;
  }
}

// Compile-time checks (`npm run typecheck`): the parsed and input types keep their shapes.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const typeChecks: [
  Equal<Config["DEFAULT_PLAN"], Plan>,
  Equal<Config["PLATFORM_ADMIN_EMAILS"], string[]>,
  Equal<Config["SESSION_TTL_HOURS"], number>,
  Equal<Config["QUEUE_URL"], string | undefined>,
  Equal<Config["TABLE_NAME"], string>,
  Equal<Config["SIGNUP_MODE"], "open" | "invite-only">,
  Equal<Config["LOG_LEVEL"], "debug" | "info" | "warn" | "error">,
  Equal<Config["ALLOW_PRIVATE_WEBHOOK_TARGETS"], "true" | "false">,
  Equal<ConfigInput["TABLE_NAME"], string>,
  Equal<ConfigInput["SIGNUP_MODE"], "open" | "invite-only" | undefined>,
  Equal<ConfigInput["SESSION_TTL_HOURS"], string | undefined>,
  Equal<LocalConfig["PORT"], number>,
  Equal<LocalConfig["BASE_URL"], string | undefined>,
  Equal<Extract<ConfigKey, "PORT">, never>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];
// @ts-expect-error an enum value the settings do not accept is a tsc error
const badEnvironment: FunctionEnvironment = { SIGNUP_MODE: "closed" };
// @ts-expect-error a key the settings do not know is a tsc error
const unknownKey: FunctionEnvironment = { SIGNUP_MODES: "open" };
const goodEnvironment: FunctionEnvironment = { SIGNUP_MODE: "invite-only", SESSION_TTL_HOURS: "12" };

describe("parseConfig", () => {
  test("the compile-time checks above hold", () => {
    expect(typeChecks.every(Boolean)).toBe(true);
    expect([badEnvironment, unknownKey, goodEnvironment]).toHaveLength(3);
  });

  test("unset settings take their defaults; unset optional ones stay undefined", () => {
    const config = parseConfig(base);
    expect(config).toEqual({
      TABLE_NAME: "inlet-table",
      BASE_URL: "http://localhost:3000",
      AWS_REGION: "us-east-1",
      NOTIFY_FROM: "Inlet <notifications@inlet.localhost>",
      DEFAULT_PLAN: "free",
      EMAIL_LINK_TTL_HOURS: 24,
      PASSWORD_RESET_TTL_MINUTES: 60,
      FIRST_ACCOUNT_ADMIN: "false",
      PLATFORM_ADMIN_EMAILS: [],
      SIGNUP_MODE: "open",
      SESSION_TTL_HOURS: 168,
      INVITE_TTL_HOURS: 168,
      PASSWORD_HASH_COST: 32768,
      LOG_LEVEL: "info",
      CAPTCHA_SCORE_VERIFY_URL: "https://www.google.com/recaptcha/api/siteverify",
      CAPTCHA_CHALLENGE_VERIFY_URL: "https://api.hcaptcha.com/siteverify",
      ERASE_TIME_BUDGET_MS: 20_000,
      CAPTCHA_TIMEOUT_MS: 3000,
      PURGE_GRACE_SECONDS: 60,
      RETENTION_PASS_SIZE: 500,
      INTAKE_CACHE_SECONDS: 5,
      ALLOW_PRIVATE_WEBHOOK_TARGETS: "false",
      OUTBOUND_TIMEOUT_MS: 10_000,
      OUTBOUND_RETRY_SCHEDULE_SECONDS: "5,300,1800,7200,18000,36000,50400,72000,86400",
      TRACING: "off",
    });
    for (const key of [
      "QUEUE_URL",
      "DYNAMODB_ENDPOINT",
      "SQS_ENDPOINT",
      "EXPORT_BUCKET",
      "S3_ENDPOINT",
      "SES_ENDPOINT",
      "SES_CONFIGURATION_SET",
    ] as const) {
      expect(config[key]).toBeUndefined();
    }
  });

  test("settings that are set are parsed; unknown variables are left out", () => {
    const config = parseConfig({
      ...base,
      QUEUE_URL: "https://sqs.example/123/q",
      EXPORT_BUCKET: "exports",
      DYNAMODB_ENDPOINT: "http://127.0.0.1:8000",
      SESSION_TTL_HOURS: "12",
      PURGE_GRACE_SECONDS: "0",
      OUTBOUND_TIMEOUT_MS: "25000",
      DEFAULT_PLAN: "agency",
      SIGNUP_MODE: "invite-only",
      LOG_LEVEL: "debug",
      ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
      PATH: "/usr/bin",
    });
    expect(config).toMatchObject({
      QUEUE_URL: "https://sqs.example/123/q",
      EXPORT_BUCKET: "exports",
      DYNAMODB_ENDPOINT: "http://127.0.0.1:8000",
      SESSION_TTL_HOURS: 12,
      PURGE_GRACE_SECONDS: 0,
      OUTBOUND_TIMEOUT_MS: 25_000,
      DEFAULT_PLAN: "agency",
      SIGNUP_MODE: "invite-only",
      LOG_LEVEL: "debug",
      ALLOW_PRIVATE_WEBHOOK_TARGETS: "true",
    });
    expect(config).not.toHaveProperty("PATH");
  });

  test("TABLE_NAME is required and must not be empty", () => {
    expect(problemsOf({})).toMatch(/^Invalid configuration: TABLE_NAME: /);
    expect(problemsOf({ TABLE_NAME: "" })).toMatch(/^Invalid configuration: TABLE_NAME: /);
    expect(problemsOf({})).not.toMatch(/;/);
  });

  describe("whole numbers", () => {
    const positive = ["SESSION_TTL_HOURS", "INVITE_TTL_HOURS", "CAPTCHA_TIMEOUT_MS", "OUTBOUND_TIMEOUT_MS"];

    test("PASSWORD_HASH_COST is a power of two from 2 to 2^30 (scrypt's N)", () => {
      expect(parseConfig({ ...base, PASSWORD_HASH_COST: "1024" }).PASSWORD_HASH_COST).toBe(1024);
      expect(parseConfig({ ...base, PASSWORD_HASH_COST: "2" }).PASSWORD_HASH_COST).toBe(2);
      for (const bad of ["1000", "1", "0", "-2", "abc", "", String(2 ** 31)]) {
        expect(problemsOf({ ...base, PASSWORD_HASH_COST: bad })).toMatch(
          /^Invalid configuration: PASSWORD_HASH_COST: .*power of two/,
        );
      }
    });

    test.each(positive)("%s accepts positive whole numbers (read as Number() does)", (key) => {
      expect(parseConfig({ ...base, [key]: "7" })[key as ConfigKey]).toBe(7);
      expect(parseConfig({ ...base, [key]: " 8 " })[key as ConfigKey]).toBe(8);
      expect(parseConfig({ ...base, [key]: "1e3" })[key as ConfigKey]).toBe(1000);
    });

    test.each(positive)("%s rejects non-numbers, fractions, zero, negatives and blanks", (key) => {
      for (const bad of ["abc", "1.5", "0", "-3", "", "  ", "Infinity", "99999999999999999999"]) {
        expect(problemsOf({ ...base, [key]: bad })).toMatch(new RegExp(`^Invalid configuration: ${key}: `));
      }
    });

    test("ERASE_TIME_BUDGET_MS takes 0 to 25000 ms (inside API Gateway's 30 s)", () => {
      expect(parseConfig({ ...base, ERASE_TIME_BUDGET_MS: "0" }).ERASE_TIME_BUDGET_MS).toBe(0);
      expect(parseConfig({ ...base, ERASE_TIME_BUDGET_MS: "25000" }).ERASE_TIME_BUDGET_MS).toBe(25_000);
      for (const bad of ["-1", "25001", "1.5", "abc", ""]) {
        expect(problemsOf({ ...base, ERASE_TIME_BUDGET_MS: bad })).toMatch(/ERASE_TIME_BUDGET_MS: /);
      }
    });

    test("PURGE_GRACE_SECONDS takes 0 and up", () => {
      expect(parseConfig({ ...base, PURGE_GRACE_SECONDS: "0" }).PURGE_GRACE_SECONDS).toBe(0);
      expect(parseConfig({ ...base, PURGE_GRACE_SECONDS: "600" }).PURGE_GRACE_SECONDS).toBe(600);
      for (const bad of ["-1", "1.5", "abc", ""]) {
        expect(problemsOf({ ...base, PURGE_GRACE_SECONDS: bad })).toMatch(/PURGE_GRACE_SECONDS: /);
      }
    });

    test("INTAKE_CACHE_SECONDS takes 0 (no cache) to 60", () => {
      expect(parseConfig({ ...base, INTAKE_CACHE_SECONDS: "0" }).INTAKE_CACHE_SECONDS).toBe(0);
      expect(parseConfig({ ...base, INTAKE_CACHE_SECONDS: "60" }).INTAKE_CACHE_SECONDS).toBe(60);
      for (const bad of ["-1", "61", "1.5", "abc", ""]) {
        expect(problemsOf({ ...base, INTAKE_CACHE_SECONDS: bad })).toMatch(/INTAKE_CACHE_SECONDS: /);
      }
    });

    test("OUTBOUND_TIMEOUT_MS is at most 25000", () => {
      expect(parseConfig({ ...base, OUTBOUND_TIMEOUT_MS: "25000" }).OUTBOUND_TIMEOUT_MS).toBe(25_000);
      expect(problemsOf({ ...base, OUTBOUND_TIMEOUT_MS: "25001" })).toMatch(/OUTBOUND_TIMEOUT_MS: .*25000/);
    });
  });

  describe("URLs", () => {
    const urlKeys = [
      "BASE_URL",
      "DYNAMODB_ENDPOINT",
      "SQS_ENDPOINT",
      "S3_ENDPOINT",
      "SES_ENDPOINT",
      "CAPTCHA_SCORE_VERIFY_URL",
      "CAPTCHA_CHALLENGE_VERIFY_URL",
    ];

    test.each(urlKeys)("%s takes an absolute URL and rejects anything else", (key) => {
      expect(parseConfig({ ...base, [key]: "https://inlet.example.com/x" })[key as ConfigKey]).toBe(
        "https://inlet.example.com/x",
      );
      for (const bad of ["not a url", "", "/relative/path", "inlet.example.com"]) {
        expect(problemsOf({ ...base, [key]: bad })).toMatch(new RegExp(`^Invalid configuration: ${key}: `));
      }
    });

    test("a URL is trimmed and loses the tabs and newlines the URL parser ignores", () => {
      expect(parseConfig({ ...base, BASE_URL: " https://inlet.exa\nmple.com/a\tb " }).BASE_URL).toBe(
        "https://inlet.example.com/ab",
      );
    });
  });

  test("enums take their values only", () => {
    for (const plan of PLANS) expect(parseConfig({ ...base, DEFAULT_PLAN: plan }).DEFAULT_PLAN).toBe(plan);
    expect(problemsOf({ ...base, DEFAULT_PLAN: "gold" })).toMatch(/DEFAULT_PLAN: .*"free"\|"pro"\|"agency"\|"enterprise"/);
    expect(problemsOf({ ...base, SIGNUP_MODE: "closed" })).toMatch(/SIGNUP_MODE: .*"open"\|"invite-only"/);
    expect(problemsOf({ ...base, SIGNUP_MODE: "Open" })).toMatch(/SIGNUP_MODE: /);
    expect(problemsOf({ ...base, LOG_LEVEL: "trace" })).toMatch(/LOG_LEVEL: /);
    expect(problemsOf({ ...base, LOG_LEVEL: "" })).toMatch(/LOG_LEVEL: /);
    expect(problemsOf({ ...base, ALLOW_PRIVATE_WEBHOOK_TARGETS: "yes" })).toMatch(/ALLOW_PRIVATE_WEBHOOK_TARGETS: /);
    expect(parseConfig({ ...base, TRACING: "on" }).TRACING).toBe("on");
    expect(problemsOf({ ...base, TRACING: "true" })).toMatch(/TRACING: .*"on"\|"off"/);
    expect(parseConfig({ ...base, SES_CONFIGURATION_SET: "inlet-set" }).SES_CONFIGURATION_SET).toBe("inlet-set");
    expect(problemsOf({ ...base, SES_CONFIGURATION_SET: "" })).toMatch(/SES_CONFIGURATION_SET: /);
  });

  test("NOTIFY_FROM is an address or a one-line display form", () => {
    for (const ok of ["forms@example.com", "Acme Forms <forms@mail.example.com>", "<forms@example.com>"]) {
      expect(parseConfig({ ...base, NOTIFY_FROM: ok }).NOTIFY_FROM).toBe(ok);
      expect(SENDER_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of ["not an address", "Forms <forms@example.com>\r\nBcc: x@evil.test", "a@b.c\n", "Forms <a b@c.d>", ""]) {
      expect(problemsOf({ ...base, NOTIFY_FROM: bad })).toMatch(/NOTIFY_FROM: Must be addr@domain or Name <addr@domain>/);
    }
  });

  test("OUTBOUND_RETRY_SCHEDULE_SECONDS is a comma-separated list of up to 50 whole seconds", () => {
    expect(parseConfig({ ...base, OUTBOUND_RETRY_SCHEDULE_SECONDS: " 1 , 60,3600 " }).OUTBOUND_RETRY_SCHEDULE_SECONDS).toBe(
      " 1 , 60,3600 ",
    );
    expect(parseConfig({ ...base, OUTBOUND_RETRY_SCHEDULE_SECONDS: Array(50).fill("5").join(",") })).toBeDefined();
    for (const bad of ["1,2,x", "1.5", "", "1,,2", "-5", Array(51).fill("5").join(",")]) {
      expect(problemsOf({ ...base, OUTBOUND_RETRY_SCHEDULE_SECONDS: bad })).toMatch(
        /OUTBOUND_RETRY_SCHEDULE_SECONDS: Comma-separated whole seconds/,
      );
    }
  });

  test("PLATFORM_ADMIN_EMAILS is read as a trimmed, lowercased list without empty items", () => {
    expect(parseConfig({ ...base, PLATFORM_ADMIN_EMAILS: " Ann@Example.com, ,bob@example.COM ," }).PLATFORM_ADMIN_EMAILS).toEqual(
      ["ann@example.com", "bob@example.com"],
    );
    expect(parseConfig({ ...base, PLATFORM_ADMIN_EMAILS: "" }).PLATFORM_ADMIN_EMAILS).toEqual([]);
    expect(parseConfig(base).PLATFORM_ADMIN_EMAILS).toEqual([]);
    expect(() => parseConfig({ ...base, PLATFORM_ADMIN_EMAILS: "ops@example.com,ops" })).toThrow(/PLATFORM_ADMIN_EMAILS/);
    // Each parse has its own list: a caller changing one must not change the next config.
    parseConfig(base).PLATFORM_ADMIN_EMAILS.push("x@example.com");
    expect(parseConfig(base).PLATFORM_ADMIN_EMAILS).toEqual([]);
  });

  test("an empty string is a value: defaults apply only to unset settings", () => {
    expect(parseConfig({ ...base, AWS_REGION: "" }).AWS_REGION).toBe("");
    expect(parseConfig({ ...base, QUEUE_URL: "" }).QUEUE_URL).toBe("");
    expect(problemsOf({ ...base, EXPORT_BUCKET: "" })).toMatch(/EXPORT_BUCKET: /);
    expect(problemsOf({ ...base, BASE_URL: "" })).toMatch(/BASE_URL: /);
    // A blank number is an error, not 0 (nor the default).
    expect(problemsOf({ ...base, PURGE_GRACE_SECONDS: "" })).toMatch(/PURGE_GRACE_SECONDS: /);
  });

  test("every problem is listed, in one message", () => {
    const message = problemsOf({
      TABLE_NAME: "",
      SESSION_TTL_HOURS: "x",
      BASE_URL: "nope",
      SIGNUP_MODE: "closed",
      OUTBOUND_TIMEOUT_MS: "25001",
    });
    expect(message).toMatch(/^Invalid configuration: /);
    const problems = message.replace(/^Invalid configuration: /, "").split("; ");
    expect(problems.map((p) => p.slice(0, p.indexOf(":")))).toEqual([
      "TABLE_NAME",
      "BASE_URL",
      "SIGNUP_MODE",
      "SESSION_TTL_HOURS",
      "OUTBOUND_TIMEOUT_MS",
    ]);
  });

  test("an error never echoes the value", () => {
    const secretish = "sk_live_DO_NOT_LOG_123";
    const env = {
      TABLE_NAME: "",
      BASE_URL: `https//${secretish}`,
      QUEUE_URL: secretish,
      SESSION_TTL_HOURS: secretish,
      NOTIFY_FROM: `${secretish}\n`,
      DEFAULT_PLAN: secretish,
      DYNAMODB_ENDPOINT: secretish,
      OUTBOUND_RETRY_SCHEDULE_SECONDS: secretish,
    };
    const message = problemsOf(env);
    expect(message).toMatch(/BASE_URL.*SESSION_TTL_HOURS/);
    expect(message).not.toContain(secretish);
    expect(message).not.toContain("DO_NOT_LOG");
  });
});

describe("checkSetting and settingDefault", () => {
  test("checkSetting gives the reason a value is invalid, or undefined", () => {
    expect(checkSetting("SIGNUP_MODE", "invite-only")).toBeUndefined();
    expect(checkSetting("SIGNUP_MODE", "closed")).toMatch(/"open"\|"invite-only"/);
    expect(checkSetting("BASE_URL", "https://forms.example.com")).toBeUndefined();
    expect(checkSetting("BASE_URL", "forms.example.com")).toEqual(expect.any(String));
    expect(checkSetting("NOTIFY_FROM", "Forms <forms@example.com>")).toBeUndefined();
    expect(checkSetting("NOTIFY_FROM", "not an address")).toBe("Must be addr@domain or Name <addr@domain>");
    expect(checkSetting("PLATFORM_ADMIN_EMAILS", "a@example.com,b@example.com")).toBeUndefined();
    expect(checkSetting("SESSION_TTL_HOURS", "0")).toEqual(expect.any(String));
    expect(checkSetting("TABLE_NAME", "")).toEqual(expect.any(String));
    expect(checkSetting("DEFAULT_PLAN", "gold")).not.toContain("gold");
  });

  test("settingDefault gives the value of an unset setting", () => {
    expect(settingDefault("NOTIFY_FROM")).toBe("Inlet <notifications@inlet.localhost>");
    expect(settingDefault("SESSION_TTL_HOURS")).toBe(168);
    expect(settingDefault("DEFAULT_PLAN")).toBe("free");
    for (const key of ["NOTIFY_FROM", "BASE_URL", "OUTBOUND_TIMEOUT_MS", "LOG_LEVEL"] as const) {
      expect(settingDefault(key)).toEqual(parseConfig(base)[key]);
    }
  });
});

describe("parseLocalConfig", () => {
  test("defaults", () => {
    expect(parseLocalConfig({})).toEqual({
      PORT: 3000,
      DATA_DIR: ".inlet-data",
      DYNAMODB_LOCAL_PORT: 0,
      SQS_LOCAL_PORT: 0,
      SES_LOCAL_PORT: 0,
      LOCAL_TTL_SWEEP_SECONDS: 60,
    });
    expect(parseLocalConfig({}).BASE_URL).toBeUndefined();
  });

  test("ports are whole numbers from 0 to 65535", () => {
    expect(parseLocalConfig({ PORT: "0", SES_LOCAL_PORT: "65535" })).toMatchObject({ PORT: 0, SES_LOCAL_PORT: 65535 });
    for (const key of ["PORT", "DYNAMODB_LOCAL_PORT", "SQS_LOCAL_PORT", "SES_LOCAL_PORT"]) {
      for (const bad of ["65536", "-1", "1.5", "abc", ""]) {
        expect(() => parseLocalConfig({ [key]: bad })).toThrow(new RegExp(`^Invalid local configuration: ${key}: `));
      }
    }
  });

  test("DATA_DIR must not be empty, BASE_URL must be a URL, and all problems are listed", () => {
    expect(parseLocalConfig({ BASE_URL: "http://localhost:4000", DATA_DIR: "/tmp/x" })).toMatchObject({
      BASE_URL: "http://localhost:4000",
      DATA_DIR: "/tmp/x",
    });
    expect(() => parseLocalConfig({ PORT: "a", DATA_DIR: "", BASE_URL: "x" })).toThrow(
      /^Invalid local configuration: PORT: [^;]+; DATA_DIR: [^;]+; BASE_URL: [^;]+$/,
    );
  });
});

describe("the cold-start cost", () => {
  test("lib/config.ts bundles without zod (or any package)", async () => {
    const result = await build({
      entryPoints: ["lib/config.ts"],
      bundle: true,
      write: false,
      platform: "node",
      format: "esm",
      metafile: true,
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain("lib/config.ts");
    expect(inputs.filter((path) => path.includes("node_modules/zod"))).toEqual([]);
    expect(inputs.filter((path) => path.includes("node_modules"))).toEqual([]);
    expect(inputs.filter((path) => path.includes("validation"))).toEqual([]);
  });
});
