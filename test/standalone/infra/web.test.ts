import type { Stack } from "aws-cdk-lib";
import { Annotations, Match, type Template } from "aws-cdk-lib/assertions";
import { CachePolicy, OriginRequestPolicy } from "aws-cdk-lib/aws-cloudfront";
import {
  DASHBOARD_CSP,
  DASHBOARD_HEADERS,
  IMMUTABLE_CACHE_CONTROL,
  INDEX_CACHE_CONTROL,
  OPENAPI_DOCUMENT_HEADERS,
  OPENAPI_DOCUMENT_PATH,
} from "../../../infra/web-headers";
import { API_PATH_PATTERN, EDGE_HEADER_NAME, INTAKE_PATH_PATTERN } from "../../../infra/web-hosting";
import { EDGE_HEADER } from "../../../lib/http/client-ip";
import { PREFLIGHT_HEADERS } from "../../../lib/intake/cors";
import {
  expectPrivateBucket,
  inletFunctions,
  isAutoDeleteStatement,
  loadApp,
  onlyLogicalId,
  type Resource,
  synth,
} from "./support";

const CERTIFICATE_ARN = "arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789";

let template: Template;
let resources: Record<string, Resource>;
let distributionId: string;
let config: Record<string, any>;

beforeAll(() => {
  ({ template, resources } = loadApp());
  distributionId = onlyLogicalId(template, "AWS::CloudFront::Distribution");
  config = (resources[distributionId] as Resource).Properties.DistributionConfig;
});

const originOf = (behavior: { TargetOriginId: string }) =>
  (config.Origins as { Id: string }[]).find((o) => o.Id === behavior.TargetOriginId) as Record<string, any>;
const apiBehavior = () => (config.CacheBehaviors as Record<string, any>[]).find((b) => b.PathPattern === API_PATH_PATTERN);
const policyOf = (ref: { Ref: string }) => (resources[ref.Ref] as Resource).Properties.ResponseHeadersPolicyConfig;

/** The CloudFront Function's code as deployed, evaluated as the runtime would call it. */
function routingHandler(): (event: { request: { uri: string } }) => { uri: string } {
  const [association] = config.DefaultCacheBehavior.FunctionAssociations;
  const fn = resources[association.FunctionARN["Fn::GetAtt"][0]] as Resource;
  expect(fn.Properties.FunctionConfig.Runtime).toBe("cloudfront-js-2.0");
  return new Function(`${fn.Properties.FunctionCode}\nreturn handler;`)();
}

describe("CORS on every intake answer, API Gateway's own included", () => {
  const intakeBehavior = () =>
    (config.CacheBehaviors as Record<string, any>[]).find((b) => b.PathPattern === INTAKE_PATH_PATTERN);

  test("intake's paths match before /api/* and go to the same origin, uncached, with everything the viewer sent but Host", () => {
    const patterns = (config.CacheBehaviors as { PathPattern: string }[]).map((b) => b.PathPattern);
    expect(patterns).toEqual([OPENAPI_DOCUMENT_PATH, INTAKE_PATH_PATTERN, API_PATH_PATTERN]);
    expect(INTAKE_PATH_PATTERN).toBe("/api/v1/incoming/*");
    const intake = intakeBehavior();
    const api = apiBehavior();
    for (const key of ["TargetOriginId", "AllowedMethods", "CachePolicyId", "OriginRequestPolicyId", "ViewerProtocolPolicy"]) {
      expect([key, intake?.[key]]).toEqual([key, api?.[key]]);
    }
  });

  test("its headers policy adds intake's CORS headers where an answer lacks them (API Gateway's 429 and 5xx) and keeps the functions' own", () => {
    const policy = policyOf(intakeBehavior()?.ResponseHeadersPolicyId);
    expect(policy.CorsConfig).toEqual({
      AccessControlAllowOrigins: { Items: [PREFLIGHT_HEADERS["access-control-allow-origin"]] },
      AccessControlAllowMethods: { Items: ["GET", "POST", "OPTIONS"] },
      AccessControlAllowHeaders: { Items: ["content-type", "x-webhook-key", "idempotency-key"] },
      AccessControlMaxAgeSec: 86400,
      AccessControlAllowCredentials: false,
      OriginOverride: false,
    });
    expect(policy.SecurityHeadersConfig).toEqual(policyOf(apiBehavior()?.ResponseHeadersPolicyId).SecurityHeadersConfig);
  });
});

describe("one distribution for the dashboard and the API", () => {
  test("the default behaviour serves the private bucket through origin access control, with the routing function", () => {
    const behavior = config.DefaultCacheBehavior;
    const origin = originOf(behavior);
    const [bucketId, attribute] = origin.DomainName["Fn::GetAtt"];
    expect([resources[bucketId]?.Type, attribute]).toEqual(["AWS::S3::Bucket", "RegionalDomainName"]);
    expect(origin.OriginAccessControlId).toEqual({
      "Fn::GetAtt": [onlyLogicalId(template, "AWS::CloudFront::OriginAccessControl"), "Id"],
    });
    expect(origin.S3OriginConfig).toEqual({ OriginAccessIdentity: "" });
    expect(behavior).toMatchObject({
      ViewerProtocolPolicy: "redirect-to-https",
      AllowedMethods: ["GET", "HEAD"],
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      FunctionAssociations: [
        {
          EventType: "viewer-request",
          FunctionARN: { "Fn::GetAtt": [onlyLogicalId(template, "AWS::CloudFront::Function"), "FunctionARN"] },
        },
      ],
    });
    expect(config.CustomErrorResponses).toBeUndefined();
  });

  test("/api/* goes to the HTTP API: every method, no caching, everything the viewer sent but Host", () => {
    const behavior = apiBehavior();
    expect(config.CacheBehaviors).toHaveLength(3);
    expect(behavior).toMatchObject({
      AllowedMethods: expect.arrayContaining(["GET", "HEAD", "OPTIONS", "PUT", "PATCH", "POST", "DELETE"]),
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      ViewerProtocolPolicy: "https-only",
    });
    expect(behavior?.FunctionAssociations).toBeUndefined();
    const origin = originOf(behavior as { TargetOriginId: string });
    expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: "https-only", OriginSSLProtocols: ["TLSv1.2"] });
    // The API's host name, taken from its endpoint (not from the stage: see infra/web-hosting.ts).
    expect(JSON.stringify(origin.DomainName)).toContain(
      JSON.stringify({ "Fn::GetAtt": [onlyLogicalId(template, "AWS::ApiGatewayV2::Api"), "ApiEndpoint"] }),
    );
    expect(JSON.stringify(origin.DomainName)).not.toContain("Stage");
  });

  test("the OpenAPI document, though under /api/, is the bucket's file: matched first, GET and HEAD, cached and compressed, CORS for anyone", () => {
    const behaviors = config.CacheBehaviors as Record<string, any>[];
    const document = behaviors.find((b) => b.PathPattern === OPENAPI_DOCUMENT_PATH) as Record<string, any>;
    expect(OPENAPI_DOCUMENT_PATH).toBe("/api/v1/openapi.json");
    expect(behaviors.indexOf(document)).toBe(0);
    expect(document.TargetOriginId).toBe(config.DefaultCacheBehavior.TargetOriginId);
    expect(config.Origins).toHaveLength(2);
    expect(document).toMatchObject({
      ViewerProtocolPolicy: "https-only",
      AllowedMethods: ["GET", "HEAD"],
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      Compress: true,
    });
    expect(document.FunctionAssociations).toBeUndefined();
    const policy = policyOf(document.ResponseHeadersPolicyId);
    expect(policy.CorsConfig).toMatchObject({
      AccessControlAllowOrigins: { Items: [OPENAPI_DOCUMENT_HEADERS["access-control-allow-origin"]] },
      AccessControlAllowMethods: { Items: ["GET", "HEAD"] },
      AccessControlAllowCredentials: false,
      OriginOverride: true,
    });
    expect(policy.SecurityHeadersConfig).toEqual(policyOf(apiBehavior()?.ResponseHeadersPolicyId).SecurityHeadersConfig);
  });

  test("the routing function answers index.html for app routes and leaves files alone", () => {
    const handler = routingHandler();
    const uriOf = (uri: string) => handler({ request: { uri } }).uri;
    expect(uriOf("/")).toBe("/index.html");
    expect(uriOf("/sites/abc")).toBe("/index.html");
    expect(uriOf("/sites/abc/forms/")).toBe("/index.html");
    expect(uriOf("/v1.2/settings")).toBe("/index.html");
    expect(uriOf("/assets/app-123.js")).toBe("/assets/app-123.js");
    expect(uriOf("/favicon.svg")).toBe("/favicon.svg");
    expect(uriOf("/index.html")).toBe("/index.html");
  });

  test("the dashboard's headers are exactly infra/web-headers.ts: strict CSP, HSTS, no framing", () => {
    const policy = policyOf(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
    const security = policy.SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy).toEqual({ ContentSecurityPolicy: DASHBOARD_CSP, Override: true });
    expect(DASHBOARD_CSP).toContain("frame-ancestors 'none'");
    expect(DASHBOARD_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(security.StrictTransportSecurity).toEqual({
      AccessControlMaxAgeSec: 63_072_000,
      IncludeSubdomains: true,
      Override: true,
    });
    expect(security.FrameOptions).toEqual({ FrameOption: "DENY", Override: true });
    // Every header the local gateway sends, as CloudFront will send it.
    const sent: Record<string, string> = {
      "Content-Security-Policy": security.ContentSecurityPolicy.ContentSecurityPolicy,
      "Strict-Transport-Security": `max-age=${security.StrictTransportSecurity.AccessControlMaxAgeSec}${security.StrictTransportSecurity.IncludeSubdomains ? "; includeSubDomains" : ""}`,
      "X-Content-Type-Options": security.ContentTypeOptions ? "nosniff" : "",
      "X-Frame-Options": security.FrameOptions.FrameOption,
      "Referrer-Policy": security.ReferrerPolicy.ReferrerPolicy,
      ...Object.fromEntries(policy.CustomHeadersConfig.Items.map((h: { Header: string; Value: string }) => [h.Header, h.Value])),
    };
    expect(sent).toEqual(DASHBOARD_HEADERS);
  });

  test("the API's answers get HSTS and nosniff, and keep their own CSP, framing and CORS", () => {
    const policy = policyOf(apiBehavior()?.ResponseHeadersPolicyId);
    expect(policy.SecurityHeadersConfig).toEqual({
      StrictTransportSecurity: { AccessControlMaxAgeSec: 63_072_000, IncludeSubdomains: true, Override: true },
      ContentTypeOptions: { Override: true },
    });
    expect(policy.CorsConfig).toBeUndefined();
    expect(policy.CustomHeadersConfig).toBeUndefined();
  });
});

describe("the app bucket", () => {
  const bucketId = (): string => originOf(config.DefaultCacheBehavior).DomainName["Fn::GetAtt"][0];

  test("is private and encrypted, with no website hosting", () => {
    const bucket = resources[bucketId()] as Resource;
    expectPrivateBucket(bucket);
  });

  test("its policy refuses plain HTTP and lets only CloudFront read, for this distribution alone", () => {
    const [policy] = Object.values(resources).filter(
      (r) => r.Type === "AWS::S3::BucketPolicy" && r.Properties.Bucket?.Ref === bucketId(),
    ) as Resource[];
    const statements = policy?.Properties.PolicyDocument.Statement as Record<string, any>[];
    expect(statements.filter((s) => s.Effect === "Deny")).toEqual([
      expect.objectContaining({ Action: "s3:*", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
    ]);
    // Besides the auto-delete custom resource's statement (test/standalone/infra/deploy.test.ts).
    const allows = statements.filter((s) => s.Effect === "Allow" && !isAutoDeleteStatement(s));
    expect(allows).toEqual([
      {
        Effect: "Allow",
        Action: "s3:GetObject",
        Principal: { Service: "cloudfront.amazonaws.com" },
        Resource: { "Fn::Join": ["", [{ "Fn::GetAtt": [bucketId(), "Arn"] }, "/*"]] },
        Condition: {
          StringEquals: {
            "AWS:SourceArn": {
              "Fn::Join": [
                "",
                [
                  "arn:",
                  { Ref: "AWS::Partition" },
                  ":cloudfront::",
                  { Ref: "AWS::AccountId" },
                  ":distribution/",
                  { Ref: distributionId },
                ],
              ],
            },
          },
        },
      },
    ]);
  });

  test("is filled from the build: hashed assets immutable and kept, the rest revalidated, pruned and invalidated", () => {
    const deployments = Object.values(resources).filter((r) => r.Type === "Custom::CDKBucketDeployment") as Resource[];
    expect(deployments).toHaveLength(3);
    const assets = deployments.find((d) => d.Properties.Include?.includes("assets/*"))?.Properties;
    const document = deployments.find((d) => d.Properties.Include?.includes("api/*"))?.Properties;
    const pages = deployments.find((d) => d.Properties.Exclude?.includes("assets/*"))?.Properties;
    expect(assets).toMatchObject({
      DestinationBucketName: { Ref: bucketId() },
      Exclude: ["*"],
      Prune: false,
      SystemMetadata: { "cache-control": IMMUTABLE_CACHE_CONTROL },
    });
    expect(assets?.DistributionId).toBeUndefined();
    // The OpenAPI document (infra/web-build.ts puts it at api/v1/openapi.json): its own type and caching.
    expect(document).toMatchObject({
      DestinationBucketName: { Ref: bucketId() },
      Exclude: ["*"],
      Prune: false,
      SystemMetadata: {
        "cache-control": OPENAPI_DOCUMENT_HEADERS["cache-control"],
        "content-type": OPENAPI_DOCUMENT_HEADERS["content-type"],
      },
    });
    expect(document?.DistributionId).toBeUndefined();
    expect(pages?.Exclude).toEqual(["assets/*", "api/*"]);
    expect(pages).toMatchObject({
      DestinationBucketName: { Ref: bucketId() },
      Prune: true,
      SystemMetadata: { "cache-control": INDEX_CACHE_CONTROL },
      DistributionId: { Ref: distributionId },
      DistributionPaths: ["/*"],
    });
  });
});

describe("the distribution's URL is the service's", () => {
  const distributionUrl = () => ({
    "Fn::Join": ["", ["https://", { "Fn::GetAtt": [distributionId, "DomainName"] }]],
  });

  test("BASE_URL of every function, the consumer included, and the DashboardUrl output", () => {
    const functions = inletFunctions(template);
    expect(functions.map((f) => f.Properties.Description)).toContain("Inlet intake queue consumer");
    for (const fn of functions) expect(fn.Properties.Environment.Variables.BASE_URL).toEqual(distributionUrl());
    template.hasOutput("DashboardUrl", { Value: distributionUrl() });
  });

  test("CloudFront sends the API its token, and every function knows it: only then is X-Forwarded-For the visitor", () => {
    const secretId = onlyLogicalId(template, "AWS::SecretsManager::Secret");
    const dynamicReference = JSON.stringify({
      "Fn::Join": ["", ["{{resolve:secretsmanager:", { Ref: secretId }, ":SecretString:::}}"]],
    });
    const origin = originOf(apiBehavior() as { TargetOriginId: string });
    expect(origin.OriginCustomHeaders).toHaveLength(1);
    expect(origin.OriginCustomHeaders[0].HeaderName).toBe(EDGE_HEADER_NAME);
    expect(JSON.stringify(origin.OriginCustomHeaders[0].HeaderValue)).toBe(dynamicReference);
    // The bucket origin gets no token: it is for the API alone.
    expect(JSON.stringify(originOf(config.DefaultCacheBehavior))).not.toContain(secretId);
    const functions = inletFunctions(template);
    for (const fn of functions) expect(JSON.stringify(fn.Properties.Environment.Variables.EDGE_SECRET)).toBe(dynamicReference);
    // lib reads it under the same header name, lower-cased as API Gateway delivers headers.
    expect(EDGE_HEADER_NAME.toLowerCase()).toBe(EDGE_HEADER);
  });

  test("with a custom domain and certificate: the alias, TLS 1.2, and https://<domainName> everywhere; cdk-nag stays clean", () => {
    const custom = synth({ domainName: "forms.example.com", certificateArn: CERTIFICATE_ARN });
    custom.template.hasResourceProperties("AWS::CloudFront::Distribution", {
      DistributionConfig: Match.objectLike({
        Aliases: ["forms.example.com"],
        ViewerCertificate: {
          AcmCertificateArn: CERTIFICATE_ARN,
          MinimumProtocolVersion: "TLSv1.2_2021",
          SslSupportMethod: "sni-only",
        },
      }),
    });
    for (const fn of inletFunctions(custom.template)) {
      expect(fn.Properties.Environment.Variables.BASE_URL).toBe("https://forms.example.com");
    }
    custom.template.hasOutput("DashboardUrl", { Value: "https://forms.example.com" });
    const findings = [
      ...Annotations.fromStack(custom.stack as Stack).findError("*", Match.stringLikeRegexp("AwsSolutions-.*")),
      ...Annotations.fromStack(custom.stack as Stack).findWarning("*", Match.stringLikeRegexp("AwsSolutions-.*")),
    ];
    expect(findings.map((f) => `${f.id}: ${String(f.entry.data).split(":")[0]}`)).toEqual([]);
  });

  test("domainName and certificateArn go together, and are checked; the old baseUrl is refused", () => {
    expect(() => synth({ domainName: "forms.example.com" })).toThrow(/domainName and certificateArn go together/);
    expect(() => synth({ certificateArn: CERTIFICATE_ARN })).toThrow(/domainName and certificateArn go together/);
    expect(() => synth({ domainName: "https://forms.example.com", certificateArn: CERTIFICATE_ARN })).toThrow(
      /domainName=.* is not a lowercase host name/,
    );
    expect(() =>
      synth({ domainName: "forms.example.com", certificateArn: CERTIFICATE_ARN.replace("us-east-1", "eu-west-1") }),
    ).toThrow(/certificateArn=.* us-east-1/);
    expect(() => synth({ baseUrl: "https://forms.example.com" })).toThrow(/baseUrl is no longer used/);
  });
});
