import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, Aspects, NestedStack, type Stack } from "aws-cdk-lib";
import { Template } from "aws-cdk-lib/assertions";
import { AwsSolutionsChecks } from "cdk-nag";
import { InletStack } from "../../../infra/stack";

/**
 * The synthesized app for property assertions (no snapshot). Bundling is skipped through the
 * `aws:cdk:bundling-stacks` context, which NodejsFunction honours: assets point at the project
 * root instead of running esbuild per function. `npm run synth` still bundles for real.
 */
const cdkJson = JSON.parse(readFileSync(new URL("../../../cdk.json", import.meta.url), "utf8")) as {
  context: Record<string, unknown>;
};

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
export interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

export const asList = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** One synthesized template, by the stack's path: the parent ("Inlet") and each nested stack. */
export interface SynthesizedTemplate {
  path: string;
  template: Template;
}

export interface Synthesized {
  stack: InletStack;
  /** The parent's and every nested template, each as CloudFormation receives it. */
  templates: SynthesizedTemplate[];
  /**
   * The whole app as one template: every nested template's resources beside the parent's, with
   * each nested parameter replaced by what the parent passes in. So a role in a nested stack that
   * is granted the parent's table refers to the table's logical id, as it would in one template.
   */
  template: Template;
  resources: Record<string, Resource>;
}

function nestedStacks(stack: Stack): NestedStack[] {
  return stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack && c !== stack);
}

/** Replaces `{ Ref: parameter }` throughout `value` by the parent's expression for it. */
function substitute(value: unknown, parameters: Record<string, unknown>): unknown {
  if (Array.isArray(value)) return value.map((v) => substitute(v, parameters));
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value);
  const [first] = entries;
  if (entries.length === 1 && first?.[0] === "Ref" && typeof first[1] === "string" && Object.hasOwn(parameters, first[1])) {
    return parameters[first[1]];
  }
  return Object.fromEntries(entries.map(([k, v]) => [k, substitute(v, parameters)]));
}

/**
 * A stand-in for the dashboard's build (web/dist), so infra tests never run Vite: an index.html
 * and one hashed asset are what the deployments need.
 */
let fakeDist: string | undefined;
export function fakeWebDist(): string {
  if (fakeDist) return fakeDist;
  const dir = mkdtempSync(join(tmpdir(), "inlet-web-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(join(dir, "index.html"), '<!doctype html><script type="module" src="/assets/x.js"></script>');
  writeFileSync(join(dir, "assets", "x.js"), "export {};\n");
  fakeDist = dir;
  return dir;
}

/** The context every deployment must give (README, "Deploy"). */
export const DEPLOY_CONTEXT = {
  platformAdminEmails: "ops@example.com",
  notifyFrom: "Acme Forms <forms@example.com>",
  sesIdentity: "example.com",
} as const;

/** The cloud assemblies this test file synthesized: removed when its tests are done. */
const assemblies: string[] = [];
afterAll(() => {
  for (const outdir of assemblies.splice(0)) rmSync(outdir, { recursive: true, force: true });
});

export function synth(context: Record<string, unknown> = {}, env?: { account: string; region: string }): Synthesized {
  // The cloud assembly goes to a folder of its own, removed after the test file: left to CDK,
  // each synth leaves a cdk.out* copy of every asset in the temporary folder (~10 MB each,
  // hundreds of MB a test run, until the disk fills). Annotations read later synthesize into it
  // again, so it lives as long as the file's tests.
  const outdir = mkdtempSync(join(tmpdir(), "inlet-cdk-"));
  assemblies.push(outdir);
  // A deployment must name its platform admins (infra/environment.ts, requirePlatformAdmins) and
  // its notification sender with that sender's SES identity (infra/operator-context.ts).
  const app = new App({
    outdir,
    context: { ...cdkJson.context, "aws:cdk:bundling-stacks": [], ...DEPLOY_CONTEXT, ...context },
  });
  // Environment-agnostic, as infra/app.ts deploys it, unless a test pins an account and region.
  const stack = new InletStack(app, "Inlet", { webDist: fakeWebDist(), ...(env ? { env } : {}) });
  Aspects.of(app).add(new AwsSolutionsChecks());
  const parent = Template.fromStack(stack);
  const parentJson = parent.toJSON() as { Resources: Record<string, Resource> };
  const templates: SynthesizedTemplate[] = [{ path: stack.node.path, template: parent }];
  const merged: Record<string, unknown> = { ...parentJson, Resources: { ...parentJson.Resources } };
  const mergedResources = merged.Resources as Record<string, Resource>;
  for (const nested of nestedStacks(stack)) {
    const template = Template.fromStack(nested);
    templates.push({ path: nested.node.path, template });
    const resource = nested.nestedStackResource;
    if (!resource) throw new Error(`${nested.node.path} has no stack resource in its parent`);
    const parameters = (parentJson.Resources[stack.getLogicalId(resource)]?.Properties.Parameters ?? {}) as Record<
      string,
      unknown
    >;
    const json = template.toJSON() as { Resources: Record<string, Resource> };
    for (const [id, r] of Object.entries(json.Resources)) {
      if (Object.hasOwn(mergedResources, id)) throw new Error(`Logical id ${id} is in two templates`);
      mergedResources[id] = substitute(r, parameters) as Resource;
    }
  }
  const template = Template.fromJSON(merged);
  return { stack, templates, template, resources: mergedResources };
}

/*
 * Helpers over the app a test file loaded in its beforeAll (`loadApp()`): each test file runs in
 * its own module registry, so each has its own.
 */
let current: Synthesized | undefined;

export function loadApp(): Synthesized {
  current = synth();
  return current;
}

function loaded(): Synthesized {
  if (!current) throw new Error("call loadApp() in beforeAll first");
  return current;
}

/** Every resource of `type`, with its logical id. */
export const ofType = (resources: Record<string, Resource>, type: string) =>
  Object.entries(resources).filter(([, r]) => r.Type === type);

export function onlyLogicalId(template: Template, type: string): string {
  const ids = Object.keys(template.findResources(type));
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

/**
 * Inlet's own functions (one per route and the consumer; InletFunction describes each as
 * "Inlet …"), without aws-s3-deployment's function that copies the dashboard into its bucket.
 */
export const inletFunctions = (template: Template): Resource[] =>
  (Object.values(template.findResources("AWS::Lambda::Function")) as Resource[]).filter((r) =>
    String(r.Properties.Description).startsWith("Inlet "),
  );

/** All public access blocked, ACLs disabled, S3-managed encryption, no website hosting. */
export function expectPrivateBucket(bucket: Resource): void {
  expect(bucket.Properties).toMatchObject({
    PublicAccessBlockConfiguration: {
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    },
    BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }] },
    OwnershipControls: { Rules: [{ ObjectOwnership: "BucketOwnerEnforced" }] },
  });
  expect(bucket.Properties.AccessControl).toBeUndefined();
  expect(bucket.Properties.WebsiteConfiguration).toBeUndefined();
}

/** The function a route entry created, found by the description InletHttpApi gives it. */
export function functionOf(route: { route: string }): [string, Resource] {
  const found = Object.entries(loaded().resources).filter(
    ([, r]) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === `Inlet ${route.route}`,
  );
  expect(found).toHaveLength(1);
  return found[0] as [string, Resource];
}

/** Every statement of every policy attached to the execution role of the function described `description`. */
export function roleStatements(description: string): Statement[] {
  const { resources } = loaded();
  const found = Object.values(resources).filter(
    (r) => r.Type === "AWS::Lambda::Function" && r.Properties.Description === description,
  );
  expect(found).toHaveLength(1);
  const roleId = (found[0] as Resource).Properties.Role["Fn::GetAtt"][0] as string;
  const role = resources[roleId];
  expect(role?.Type).toBe("AWS::IAM::Role");
  expect(role?.Properties.ManagedPolicyArns ?? []).toEqual([]);
  expect(role?.Properties.Policies ?? []).toEqual([]);
  return Object.values(resources)
    .filter(
      (r) => r.Type === "AWS::IAM::Policy" && asList(r.Properties.Roles).some((ref: { Ref?: string }) => ref.Ref === roleId),
    )
    .flatMap((r) => r.Properties.PolicyDocument.Statement as Statement[]);
}

/** Every statement of every policy attached to the route function's execution role. */
export const statementsOf = (route: { route: string }): Statement[] => roleStatements(`Inlet ${route.route}`);

export const actionsOf = (statements: Statement[]) => statements.flatMap((s) => asList(s.Action));

/**
 * Whether a bucket policy statement is the one `autoDeleteObjects` adds for CDK's custom resource
 * that empties the bucket when CloudFormation deletes it (test/standalone/infra/deploy.test.ts checks it).
 */
export const isAutoDeleteStatement = (statement: object) =>
  JSON.stringify((statement as { Principal?: unknown }).Principal ?? {}).includes(
    "CustomS3AutoDeleteObjectsCustomResourceProviderRole",
  );
