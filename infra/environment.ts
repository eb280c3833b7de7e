import type { ITable } from "aws-cdk-lib/aws-dynamodb";
import { PolicyStatement } from "aws-cdk-lib/aws-iam";
import type { Function as LambdaFunction } from "aws-cdk-lib/aws-lambda";
import type { IBucket } from "aws-cdk-lib/aws-s3";
import type { IQueue } from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import type { Construct } from "constructs";
import type { RouteDef } from "../functions/routes";
import { type ConfigInput, type ConfigKey, checkSetting, firstAccountRule, parseSettings } from "../lib/config";
import { EXPORT_PREFIX } from "../lib/store/exports";
import { IMPORT_PREFIX } from "../lib/store/import-files";
import { GSI1 } from "../lib/store/table-definition";
import {
  type GrantContext,
  grantOf,
  leadingKeyPattern,
  type TableGrant,
  type WriteStatement,
  writeStatements,
} from "./table-grants";

/**
 * A function's environment, typed from the settings table (lib/config.ts): a key the table does
 * not know, or an enum value it does not accept, is a `tsc` error rather than a cold-start
 * failure in production. Numbers are parsed at cold start, so they are plain strings here.
 */
export type FunctionEnvironment = {
  readonly [K in ConfigKey]?: NonNullable<ConfigInput[K]> extends string ? NonNullable<ConfigInput[K]> : string;
};

export function setEnvironment(fn: LambdaFunction, env: FunctionEnvironment): void {
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined) fn.addEnvironment(key, value);
  }
}

/**
 * Settings an operator may set per deployment with CDK context (`cdk deploy -c signupMode=...`
 * or the `context` block of cdk.json). Unset ones are left out of the environment so the
 * defaults in lib/config.ts stay the only defaults.
 */
export const CONTEXT_SETTINGS = {
  defaultPlan: "DEFAULT_PLAN",
  platformAdminEmails: "PLATFORM_ADMIN_EMAILS",
  signupMode: "SIGNUP_MODE",
  logLevel: "LOG_LEVEL",
} as const satisfies Record<string, ConfigKey>;

/**
 * The context settings that are set, each validated by the same rules the functions parse with
 * at cold start (`checkSetting`), so `-c signupMode=closed` fails `cdk synth` instead of every
 * request.
 */
export function settingsFromContext(scope: Construct): FunctionEnvironment {
  const env: Partial<Record<ConfigKey, string>> = {};
  for (const [contextKey, configKey] of Object.entries(CONTEXT_SETTINGS)) {
    const raw: unknown = scope.node.tryGetContext(contextKey);
    if (raw === undefined || raw === null || raw === "") continue;
    // cdk.json may list admin emails as a JSON array; lib/config.ts reads a comma-separated string.
    const value = Array.isArray(raw) ? raw.map(String).join(",") : String(raw);
    const reason = checkSetting(configKey, value);
    if (reason !== undefined) {
      throw new Error(`Context value ${contextKey}=${JSON.stringify(value)} is not a valid ${configKey}: ${reason}`);
    }
    env[configKey] = value;
  }
  return env as FunctionEnvironment;
}

/** A custom domain for the distribution, with its certificate (ACM, us-east-1, as CloudFront requires). */
export interface WebDomain {
  domainName: string;
  certificateArn: string;
}

/** A DNS name of at least two labels, lowercase, no scheme, port, path or trailing dot. */
const DOMAIN_NAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** CloudFront takes certificates from us-east-1 only. */
const CERTIFICATE_ARN = /^arn:aws(?:-[a-z]+)*:acm:us-east-1:\d{12}:certificate\/[0-9a-f-]{36}$/;

/**
 * The optional custom domain of the distribution: context values `domainName` and
 * `certificateArn`, both or neither. With them BASE_URL is `https://<domainName>`. The former
 * `baseUrl` setting is refused: BASE_URL must be the origin the dashboard is served from, or
 * its sessions' CSRF check (lib/auth/session-cookie.ts) refuses every request.
 */
export function webDomainFromContext(scope: Construct): WebDomain | undefined {
  const read = (key: string): string | undefined => {
    const raw: unknown = scope.node.tryGetContext(key);
    return raw === undefined || raw === null || raw === "" ? undefined : String(raw);
  };
  if (read("baseUrl") !== undefined) {
    throw new Error(
      "The context value baseUrl is no longer used: BASE_URL is the CloudFront distribution's URL, or https://<domainName> " +
        "with -c domainName=forms.example.com -c certificateArn=arn:aws:acm:us-east-1:… (docs/deployment.md, Hosting).",
    );
  }
  const domainName = read("domainName");
  const certificateArn = read("certificateArn");
  if (domainName === undefined && certificateArn === undefined) return undefined;
  if (domainName === undefined || certificateArn === undefined) {
    throw new Error("The context values domainName and certificateArn go together: give both, or neither.");
  }
  if (!DOMAIN_NAME.test(domainName)) {
    throw new Error(
      `Context value domainName=${JSON.stringify(domainName)} is not a lowercase host name such as forms.example.com`,
    );
  }
  if (!CERTIFICATE_ARN.test(certificateArn)) {
    throw new Error(
      `Context value certificateArn=${JSON.stringify(certificateArn)} is not an ACM certificate ARN in us-east-1 (CloudFront uses certificates from us-east-1 only)`,
    );
  }
  const reason = checkSetting("BASE_URL", `https://${domainName}`);
  if (reason !== undefined)
    throw new Error(`Context value domainName=${JSON.stringify(domainName)} makes no valid BASE_URL: ${reason}`);
  return { domainName, certificateArn };
}

/**
 * A deployment names its platform admins: without them the functions would have none (they
 * never run the local first-account rule, FIRST_ACCOUNT_ADMIN), and a first-signup rule would
 * hand the whole deployment to whoever signs up first after `cdk deploy` (docs/accounts.md).
 * Each listed address becomes admin once its owner signs up and verifies it.
 */
export function requirePlatformAdmins(scope: Construct): void {
  const raw: unknown = scope.node.tryGetContext("platformAdminEmails");
  const given = Array.isArray(raw) ? raw.map(String).join(",") : String(raw ?? "");
  if (given.split(",").some((email) => email.trim() !== "")) return;
  throw new Error(
    "The context value platformAdminEmails is required: the email addresses of this deployment's platform admins, comma-separated. " +
      "For example: npx cdk deploy -c platformAdminEmails=ops@example.com (or set it in cdk.json's context). " +
      "Each becomes a platform admin once its owner signs up and verifies the address (docs/accounts.md).",
  );
}

/**
 * The function's table grant (infra/table-grants.ts) as IAM statements, and TABLE_NAME. Reads
 * cover the table and its one index by name (no wildcard); writes are per operation, each on the
 * partitions the grant names.
 */
export function bindTable(fn: LambdaFunction, table: ITable, grant: TableGrant): void {
  if (grant.access === "none") return;
  for (const statement of tableStatements(table, grant)) fn.addToRolePolicy(statement);
  setEnvironment(fn, { TABLE_NAME: table.tableName });
}

/**
 * A write statement's condition: the partitions (`ForAllValues:StringLike` on LeadingKeys) and,
 * narrowed, the attribute names (`ForAllValues:StringEquals` on Attributes; StringLike when a
 * name is a prefix pattern such as the spam counter's `s*`).
 */
export function writeConditions(statement: WriteStatement): Record<string, Record<string, string[]>> {
  const leadingKeys = { "dynamodb:LeadingKeys": statement.partitions.map(leadingKeyPattern) };
  const { attributes } = statement;
  if (!attributes) return { "ForAllValues:StringLike": leadingKeys };
  if (attributes.some((name) => name.includes("*"))) {
    return { "ForAllValues:StringLike": { ...leadingKeys, "dynamodb:Attributes": attributes } };
  }
  return { "ForAllValues:StringLike": leadingKeys, "ForAllValues:StringEquals": { "dynamodb:Attributes": attributes } };
}

/** The IAM statements of `grant` on `table`: reads, then the writes of `writeStatements`. */
export function tableStatements(table: ITable, grant: TableGrant): PolicyStatement[] {
  if (grant.access === "none") return [];
  return [
    new PolicyStatement({
      actions: ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:ConditionCheckItem"],
      resources: [table.tableArn, `${table.tableArn}/index/${GSI1}`],
    }),
    ...writeStatements(grant).map(
      (statement) =>
        new PolicyStatement({
          actions: statement.operations.map((op) => `dynamodb:${op}`),
          resources: [table.tableArn],
          conditions: writeConditions(statement),
        }),
    ),
  ];
}

/** `send` → may send to the intake queue, and knows its URL. */
export function bindQueue(fn: LambdaFunction, queue: IQueue, access: RouteDef["queue"]): void {
  if (access !== "send") return;
  queue.grantSendMessages(fn);
  setEnvironment(fn, { QUEUE_URL: queue.queueUrl });
}

/**
 * `write` → may put export files under `exports/` and read them back (the presigned download
 * links are signed with the function's own credentials), and knows EXPORT_BUCKET. Explicit
 * actions: `bucket.grantReadWrite` would add wildcard actions (s3:GetObject*, s3:List*, ...).
 */
export function bindBucket(fn: LambdaFunction, bucket: IBucket | undefined, access: RouteDef["bucket"]): void {
  if (access !== "write") return;
  if (!bucket) throw new Error(`A route of ${fn.node.path} needs the export bucket, and none was given`);
  fn.addToRolePolicy(
    new PolicyStatement({ actions: ["s3:PutObject", "s3:GetObject"], resources: [bucket.arnForObjects(`${EXPORT_PREFIX}*`)] }),
  );
  setEnvironment(fn, { EXPORT_BUCKET: bucket.bucketName });
  allowPrefixWildcard(
    fn,
    "exports",
    "Each export is a new object with a random name under the export bucket's `exports/` prefix; the function may put and get objects there only, in this one bucket.",
  );
}

/** cdk-nag's IAM5 (a wildcard resource) accepted for the bucket's objects under `<prefix>/`, with why. */
function allowPrefixWildcard(fn: LambdaFunction, prefix: string, reason: string): void {
  if (!fn.role) return;
  NagSuppressions.addResourceSuppressions(
    fn.role,
    [{ id: "AwsSolutions-IAM5", reason, appliesTo: [{ regex: `/^Resource::<[A-Za-z0-9]+\\.?Arn>\\/${prefix}\\/\\*$/` }] }],
    true,
  );
}

/**
 * An import's rows under the export bucket's `imports/` (lib/store/import-files.ts): `write` → the
 * import route may put them, `read` → the consumer may get them; each knows EXPORT_BUCKET.
 */
export function bindImports(fn: LambdaFunction, bucket: IBucket | undefined, access: RouteDef["imports"]): void {
  if (access === undefined) return;
  if (!bucket) throw new Error(`${fn.node.path} reads or writes imports, and no export bucket was given`);
  const actions = access === "write" ? ["s3:PutObject"] : ["s3:GetObject"];
  fn.addToRolePolicy(new PolicyStatement({ actions, resources: [bucket.arnForObjects(`${IMPORT_PREFIX}*`)] }));
  setEnvironment(fn, { EXPORT_BUCKET: bucket.bucketName });
  allowPrefixWildcard(
    fn,
    "imports",
    "Each import's rows are objects with a random name under the export bucket's `imports/` prefix; the route may only put them, the consumer only get them, in this one bucket.",
  );
}

/**
 * What the functions' settings decide of their grants: whether the first-account rule runs.
 * Never in the CDK app, which sets no FIRST_ACCOUNT_ADMIN (it is no context setting) and requires
 * PLATFORM_ADMIN_EMAILS (`requirePlatformAdmins`); derived by the rule itself all the same, so
 * signup's grant follows the code that decides.
 */
export function grantContextOf(settings: FunctionEnvironment): GrantContext {
  return { firstAccountRule: firstAccountRule(parseSettings(["FIRST_ACCOUNT_ADMIN", "PLATFORM_ADMIN_EMAILS"], settings)) };
}

/** Everything a route entry says its function may touch: grants and environment together. */
export function bindRoute(
  fn: LambdaFunction,
  route: RouteDef,
  resources: { table: ITable; queue: IQueue; bucket?: IBucket | undefined },
  context: GrantContext,
): void {
  if (route.auth !== "public" && route.table === "none") {
    // Authenticating a request reads its session or API key from the table.
    throw new Error(`Route ${route.route} authenticates (${route.auth}) but has table: "none"`);
  }
  bindTable(fn, resources.table, grantOf(route, context));
  bindQueue(fn, resources.queue, route.queue);
  bindBucket(fn, resources.bucket, route.bucket);
  bindImports(fn, resources.bucket, route.imports);
}
