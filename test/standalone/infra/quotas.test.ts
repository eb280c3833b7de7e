import { ROUTES } from "../../../functions/routes";
import { loadApp, type SynthesizedTemplate } from "./support";

/**
 * CloudFormation's per-template quotas (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/cloudformation-limits.html):
 * 500 resources, 200 parameters, 200 outputs, 1 MB of template body (from S3). The bars below
 * leave room for growth; docs/deployment.md ("Headroom") says what each route costs.
 */
const MAX_RESOURCES = 400;
const MAX_PARAMETERS = 150;
const MAX_OUTPUTS = 150;
/**
 * A quarter of the 1 MB quota: a template past it is growing in a way worth a look (cdk-nag
 * metadata, inline code). Measured as compact JSON: the largest is about 86 KB in this release, 130 KB
 * as `cdk synth` writes it, indented and with construct paths (docs/deployment.md, "Headroom").
 */
const MAX_TEMPLATE_BYTES = 256 * 1024;

let templates: SynthesizedTemplate[];

beforeAll(() => {
  ({ templates } = loadApp());
});

const sizes = () =>
  templates.map(({ path, template }) => {
    const json = template.toJSON() as { Resources?: object; Parameters?: object; Outputs?: object };
    return {
      path,
      resources: Object.keys(json.Resources ?? {}).length,
      parameters: Object.keys(json.Parameters ?? {}).length,
      outputs: Object.keys(json.Outputs ?? {}).length,
      bytes: Buffer.byteLength(JSON.stringify(json)),
    };
  });

describe("every synthesized template stays far below CloudFormation's quotas", () => {
  test(`no template holds more than ${MAX_RESOURCES} resources`, () => {
    const over = sizes().filter((t) => t.resources > MAX_RESOURCES);
    expect(over).toEqual([]);
  });

  test("parameters, outputs and template size stay under their bars", () => {
    const over = sizes().filter((t) => t.parameters > MAX_PARAMETERS || t.outputs > MAX_OUTPUTS || t.bytes > MAX_TEMPLATE_BYTES);
    expect(over).toEqual([]);
  });

  test("routes are spread over nested stacks, one per route family, so no template grows with the route table", () => {
    const families = new Set(ROUTES.filter((r) => r.handler.includes("/")).map((r) => r.handler.split("/")[0]));
    // One per route family, the bookkeeper's (infra/bookkeeping.ts) and the digest run's (infra/digests.ts).
    expect(templates).toHaveLength(1 + families.size + 2);
    // The parent holds the stateful resources and the API; a family's template its routes' seven
    // resources each (function, role, policy, log group, integration, permission, route).
    // The parent holds 100 since issues 25 and 26 (the bookkeeper's wiring, the OpenAPI
    // document's hosting, the chat destinations), 102 with the digest run's and the account
    // routes' nested stacks: a fifth of CloudFormation's 500. Past 110, move a concern into a
    // nested stack of its own, as infra/bookkeeping.ts and infra/digests.ts do.
    const largest = Math.max(...sizes().map((t) => t.resources));
    expect(largest).toBeLessThanOrEqual(110);
  });
});

describe("cdk-nag suppressions sit on the resources they concern", () => {
  test("the route rules (APIG4, COG4) are suppressed on the HTTP API's routes only, not on every child of the API", () => {
    for (const { path, template } of templates) {
      const json = template.toJSON() as { Resources: Record<string, { Type: string; Metadata?: Record<string, any> }> };
      for (const [id, resource] of Object.entries(json.Resources)) {
        const rules = ((resource.Metadata?.cdk_nag?.rules_to_suppress ?? []) as { id: string }[]).map((r) => r.id);
        const routeRules = rules.filter((rule) => rule === "AwsSolutions-APIG4" || rule === "AwsSolutions-COG4");
        if (resource.Type === "AWS::ApiGatewayV2::Route")
          expect([path, id, routeRules.sort()]).toEqual([path, id, ["AwsSolutions-APIG4", "AwsSolutions-COG4"]]);
        else expect([path, id, routeRules]).toEqual([path, id, []]);
      }
    }
  });

  test("suppression metadata stays small: under 500 bytes per resource on average (it was over 700)", () => {
    for (const { path, template } of templates) {
      const json = template.toJSON() as { Resources: Record<string, { Metadata?: unknown }> };
      const resources = Object.values(json.Resources);
      const metadata = resources.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r.Metadata ?? {})), 0);
      expect([path, metadata / resources.length < 500]).toEqual([path, true]);
    }
  });
});
